// `wo run-state`'s operation: one engine mode applied to a sidecar file — read it, let the mode
// decide, write what it returns atomically. A failed write is reported, never half-done.
import { basename } from 'node:path';
import type { RunStateOutcome } from '../../engine/workorders/run-state';
import { readText, writeJsonAtomic } from '../../drivers/workorders/files';

/** The work order a sidecar path names: `…/wo-03.run.json` → `wo-03`. */
export function sidecarWo(runJson: string): string {
  return basename(runJson).replace(/\.run\.json$/, '');
}

export function applyToSidecar(
  runJson: string,
  mode: (wo: string, text: string | undefined) => RunStateOutcome,
): RunStateOutcome | { writeFailed: true } {
  const outcome = mode(sidecarWo(runJson), readText(runJson));
  if (outcome.write) {
    try {
      writeJsonAtomic(runJson, outcome.write);
    } catch {
      return { writeFailed: true };
    }
  }
  return outcome;
}
