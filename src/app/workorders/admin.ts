// The work-order verbs a person uses by hand, as one operation each for both shells
// (`loop-ledger wo halt|clear|kill|unkill` and the Work Orders view) and for the loop's own
// halts: the rules are the engine's (engine/workorders/admin.ts); this is their disk side.
import { existsSync, renameSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import {
  clearedMarkerName,
  clearedSidecar,
  haltMarker,
  isHalted,
  KILL_SWITCH_NAME,
  killSwitchText,
} from '../../engine/workorders/admin';
import { sidecars } from '../../engine/workorders/ids';
import { halt as haltSidecar, sidecarObject } from '../../engine/workorders/run-state';
import { confineWoWrite, isDirectory, readText, writeJsonAtomic } from '../../drivers/workorders/files';
import { writeFileConfined } from '../../store/confine';

export { isDirectory };

export interface HaltResult {
  /** The marker's path. */
  marker: string;
  /** Whether a sidecar was there to mark halted (an absent or broken one is left alone). */
  sidecarHalted: boolean;
}

/**
 * Halts a work order: the marker first (so a crash between the two still leaves it halted), then
 * the sidecar. `keepMarker` leaves a marker that is already there as it is (the loop's halts keep
 * the first reason); a person's halt writes a new one.
 */
export function haltWorkOrder(
  dir: string,
  id: string,
  reason: string,
  at: string,
  options: { extra?: Record<string, unknown>; keepMarker?: boolean } = {},
): HaltResult {
  const names = sidecars(id);
  const marker = join(dir, names.halt);
  if (!(options.keepMarker === true && existsSync(marker)))
    writeJsonAtomic(marker, haltMarker(id, reason, at, options.extra));
  const runPath = join(dir, names.run);
  const result = haltSidecar(id, readText(runPath), reason);
  if (result.write) writeJsonAtomic(runPath, result.write);
  return { marker, sidecarHalted: result.write !== undefined };
}

export type ClearResult =
  | { ok: false; reason: 'not_halted' }
  | {
      ok: true;
      /** Where the marker was kept, or null when only the sidecar was halted. */
      cleared: string | null;
      /** Whether the sidecar was rewritten. */
      sidecar: boolean;
    };

/**
 * Lifts a HALT: keeps the marker under a cleared name and un-halts the sidecar (with
 * `resetAttempts`, also sets its attempts back to 0). A work order that is not halted is refused
 * and nothing is written.
 */
export function clearWorkOrderHalt(dir: string, id: string, at: string, resetAttempts = false): ClearResult {
  const names = sidecars(id);
  const markerPath = join(dir, names.halt);
  const runPath = join(dir, names.run);
  if (!isHalted(existsSync(markerPath), sidecarObject(readText(runPath))))
    return { ok: false, reason: 'not_halted' };
  confineWoWrite(markerPath); // before the marker is renamed, not after
  let cleared: string | null = null;
  if (existsSync(markerPath)) {
    cleared = clearedMarkerName(markerPath, at);
    renameSync(markerPath, cleared);
  }
  const text = readText(runPath);
  const next = text === undefined ? undefined : clearedSidecar(sidecarObject(text), at, resetAttempts);
  if (next) writeJsonAtomic(runPath, next);
  return { ok: true, cleared, sidecar: next !== undefined };
}

/** The kill switch's path in a task folder. */
export function killSwitchPath(task: string): string {
  return join(task, KILL_SWITCH_NAME);
}

export function killSwitchOn(task: string): boolean {
  return existsSync(killSwitchPath(task));
}

/**
 * Sets (`on`) or lifts the task's kill switch; returns its path. Setting it is a write confined
 * to the task folder (OutsideRootError when `.kill` would land elsewhere); lifting it is a plain
 * removal, quiet when it is not there.
 */
export function setKillSwitch(task: string, on: boolean, at: string): string {
  const path = killSwitchPath(task);
  if (on) writeFileConfined(task, path, killSwitchText(at));
  else rmSync(path, { force: true });
  return path;
}
