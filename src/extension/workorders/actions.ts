// Writes a person makes from the Work Orders view, through the same engine rules and atomic
// file helpers as `loop-ledger wo`: a legal status transition, a HALT (marker, then sidecar),
// clearing a HALT (the marker kept as `wo-NN.HALT.cleared-<time>`), the kill switch.
import { existsSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { sidecars } from '../../engine/workorders/ids';
import { halt as haltSidecar, sidecarObject } from '../../engine/workorders/run-state';
import { setStatus, type SetStatusPayload } from '../../engine/workorders/status';
import {
  readText,
  siblingsOf,
  writeHaltMarker,
  writeJsonAtomic,
  writeTextAtomic,
} from '../../drivers/workorders/files';

const stamp = (now: Date): string => now.toISOString().replace(/\.[0-9]{3}Z$/, 'Z');

export function transitionWorkOrder(path: string, to: string): SetStatusPayload {
  const dir = join(path, '..');
  const result = setStatus(path, readText(path), to, siblingsOf(dir));
  if (result.write !== undefined) writeTextAtomic(path, result.write);
  return result.payload;
}

export function haltWorkOrder(dir: string, id: string, reason: string, now: Date): void {
  writeHaltMarker(dir, id, reason, stamp(now), { by: 'vscode' });
  const runPath = join(dir, sidecars(id).run);
  const result = haltSidecar(id, readText(runPath), reason);
  if (result.write) writeJsonAtomic(runPath, result.write);
}

/** Lifts a HALT; returns the kept marker's path (null when only the sidecar was halted). */
export function clearWorkOrderHalt(dir: string, id: string, now: Date): string | null {
  const names = sidecars(id);
  const marker = join(dir, names.halt);
  let kept: string | null = null;
  if (existsSync(marker)) {
    kept = `${marker}.cleared-${stamp(now).replace(/:/g, '')}`;
    renameSync(marker, kept);
  }
  const runPath = join(dir, names.run);
  const text = readText(runPath);
  if (text !== undefined) {
    const run = sidecarObject(text);
    if (run.halted === true)
      writeJsonAtomic(runPath, { ...run, halted: false, halt_reason: null, cleared_at: stamp(now) });
  }
  return kept;
}

export function setKillSwitch(taskPath: string, on: boolean, now: Date): void {
  const path = join(taskPath, '.kill');
  if (on) writeFileSync(path, `${stamp(now)}\n`);
  else rmSync(path, { force: true });
}
