// `compile assert-dispatchable`: a work order may be dispatched only when it is `ready` and its
// grounding is clean — or a complete human override (`coverage_override {reason, by, at}`)
// bypasses the grounding (never the status). The first failing clause names the refusal.
import { readFrontmatter } from './frontmatter-yaml';
import { alt, isObject } from './jq';

export interface DispatchGatePayload {
  dispatchable: boolean;
  reason: string;
  override_used: boolean;
}

const nonEmptyString = (value: unknown): boolean => typeof value === 'string' && value.length > 0;

export function overrideValid(value: unknown): boolean {
  if (!isObject(value)) return false;
  const at = alt(value.at, '');
  return (
    nonEmptyString(alt(value.reason, '')) &&
    nonEmptyString(alt(value.by, '')) &&
    nonEmptyString(at) &&
    /^[0-9]{4}-[0-9]{2}-[0-9]{2}/.test(at as string)
  );
}

/** Judges parsed frontmatter (the pure core, reused by the loop's re-gate). */
export function dispatchGate(fm: Record<string, unknown>): DispatchGatePayload {
  const status = alt(fm.status, '');
  const coverage = alt(fm.coverage_status, '');
  const lockfile = fm.lockfile ?? null;
  const drift = fm.drift_guard;
  const symbols = isObject(drift) ? (drift.symbols_resolved ?? null) : null;
  const acceptance = isObject(drift) ? (drift.acceptance_runnable ?? null) : null;
  const verified = fm.verified === true;
  const covered = coverage === 'covered';
  const lockfileOk =
    lockfile === null
      ? true
      : Array.isArray(lockfile) && lockfile.every((entry) => isObject(entry) && (entry.sha ?? null) !== null);
  const driftOk = symbols === true && acceptance === true;
  const groundingClean = verified && covered && lockfileOk && driftOk;
  const overrideOk = overrideValid(fm.coverage_override);
  const cleared = groundingClean || overrideOk;
  const dispatchable = cleared && status === 'ready';
  let reason = 'dispatchable';
  if (!dispatchable) {
    if (!cleared) {
      if (coverage === 'poisoned') reason = 'poisoned';
      else if (coverage === 'uncovered') reason = 'uncovered';
      else if (!(verified && covered)) reason = 'verified_false';
      else if (!lockfileOk) reason = 'unpinned_ref';
      else if (symbols === 'skipped') reason = 'drift_skipped';
      else if (symbols !== true) reason = 'drift_unresolved';
      else if (acceptance !== true) reason = 'acceptance_not_runnable';
      else reason = 'verified_false';
    } else {
      reason = `status_not_ready:${typeof status === 'string' ? status : JSON.stringify(status)}`;
    }
  }
  return { dispatchable, reason, override_used: overrideOk && !groundingClean };
}

/** The kernel over a file's text: exit 0 iff dispatchable, 1 refused. */
export function assertDispatchable(text: string | undefined): {
  exitCode: number;
  payload: DispatchGatePayload;
} {
  if (text === undefined) {
    return {
      exitCode: 1,
      payload: { dispatchable: false, reason: 'frontmatter_unreadable:file_missing', override_used: false },
    };
  }
  const fm = readFrontmatter(text);
  if (!fm.ok) {
    return {
      exitCode: 1,
      payload: { dispatchable: false, reason: `frontmatter_unreadable:${fm.error}`, override_used: false },
    };
  }
  const payload = dispatchGate(fm.data);
  return { exitCode: payload.dispatchable ? 0 : 1, payload };
}
