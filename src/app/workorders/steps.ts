// Small disk steps of the loop, each through an engine rule: a status transition, a HALT
// (the app's halt operation, keeping a marker already there), a sidecar read.
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { readFrontmatter } from '../../engine/workorders/frontmatter-yaml';
import { sidecars } from '../../engine/workorders/ids';
import { sidecarObject } from '../../engine/workorders/run-state';
import { setStatus, type SetStatusPayload } from '../../engine/workorders/status';
import { readText, siblingsOf, writeTextAtomic } from '../../drivers/workorders/files';
import { haltWorkOrder } from './admin';
import type { RunContext } from './context';

export function transition(path: string, to: string): SetStatusPayload {
  const result = setStatus(path, readText(path), to, siblingsOf(dirname(path)));
  if (result.write !== undefined) writeTextAtomic(path, result.write);
  return result.payload;
}

export function frontmatterOf(path: string): Record<string, unknown> {
  const text = readText(path);
  const fm = text === undefined ? undefined : readFrontmatter(text);
  return fm?.ok ? fm.data : {};
}

export function runObject(ctx: RunContext, id: string): Record<string, unknown> {
  return sidecarObject(readText(join(ctx.dir, sidecars(id).run)));
}

export function haltMarkerPresent(ctx: RunContext, id: string): boolean {
  return existsSync(join(ctx.dir, sidecars(id).halt));
}

/** Makes a work order TERMINAL: the marker (kept if one exists), then the sidecar, best-effort. */
export function haltWo(
  ctx: RunContext,
  id: string,
  reason: string,
  extra: Record<string, unknown> = {},
): string {
  const { marker } = haltWorkOrder(ctx.dir, id, reason, ctx.now(), { extra, keepMarker: true });
  ctx.log(`wo-run halt wo=${id} reason=${reason}`);
  return marker;
}
