// The rules of the work-order verbs a person uses by hand — halt, clear a halt, the kill switch —
// shared by `loop-ledger wo halt|clear|kill|unkill`, the Work Orders view and the loop's own halts.
// Pure: the caller reads the files, passes the time `at`, and writes what these return.

/** The task's kill switch, `<task>/.kill`: while it exists `wo run` stops at the next work-order boundary. */
export const KILL_SWITCH_NAME = '.kill';

/** What the kill switch file holds: the time it was set, one line. */
export function killSwitchText(at: string): string {
  return `${at}\n`;
}

/** The HALT marker's content: who halted it and why, plus any keys the caller adds. */
export function haltMarker(
  id: string,
  reason: string,
  at: string,
  extra: Record<string, unknown> = {},
): Record<string, unknown> {
  return { wo_id: id, reason, at, ...extra };
}

/** A work order is halted while its HALT marker exists or its sidecar says `halted: true`. */
export function isHalted(markerPresent: boolean, run: Record<string, unknown>): boolean {
  return markerPresent || run.halted === true;
}

/**
 * The name a cleared HALT marker is kept under, `wo-NN.HALT.cleared-<at>`: the record of the halt
 * is never deleted. Colons are dropped from the time so that every file system takes the name.
 */
export function clearedMarkerName(markerName: string, at: string): string {
  return `${markerName}.cleared-${at.replace(/:/g, '')}`;
}

/**
 * The sidecar after a clear, or undefined when there is nothing to write: a halted sidecar is
 * un-halted (reason dropped, `cleared_at` set); `resetAttempts` also sets the attempts back to 0,
 * which writes even a sidecar that was not halted.
 */
export function clearedSidecar(
  run: Record<string, unknown>,
  at: string,
  resetAttempts: boolean,
): Record<string, unknown> | undefined {
  if (run.halted !== true && !resetAttempts) return undefined;
  const next: Record<string, unknown> = { ...run, halted: false, halt_reason: null, cleared_at: at };
  if (resetAttempts) next.attempts = 0;
  return next;
}
