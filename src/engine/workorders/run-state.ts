// The run-state sidecar `wo-NN.run.json` — the retry cap's single authority. `dispatch` is the
// only place the cap is checked; a halt or corrupt sidecar writes nothing. Each function takes
// the sidecar's current text (undefined when absent) and returns what to print and what to write.
//
// Deliberate departures from the original, each documented in README:
// - `dispatch` refuses a sidecar already marked `halted: true` (`run_state_halted`); the
//   original rewrote it to `halted: false` under the cap, so only the marker kept it terminal.
// - `collect` sets only the fields it is given; the original reset omitted ones to false/null.
// - `collect --checkpoint-after` records `produced_changes` (false for `null`), so "collected,
//   no change" is no longer indistinguishable from "never collected".
import { isObject } from './jq';

export interface RunStateOutcome {
  exitCode: number;
  stdout: Record<string, unknown>;
  stderr: string;
  /** The new sidecar object to write atomically, when the mode writes. */
  write?: Record<string, unknown>;
}

export const DEFAULT_CAP = 3;

type Parsed =
  | { kind: 'absent' }
  | { kind: 'malformed' }
  | { kind: 'non-object' }
  | { kind: 'object'; value: Record<string, unknown> };

function parseSidecar(text: string | undefined): Parsed {
  if (text === undefined) return { kind: 'absent' };
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return { kind: 'malformed' };
  }
  return isObject(value) ? { kind: 'object', value } : { kind: 'non-object' };
}

/** Prior attempts from a present sidecar, or undefined when it cannot be trusted. */
function priorAttempts(value: Record<string, unknown>): number | undefined {
  const attempts = value.attempts;
  return typeof attempts === 'number' && Number.isInteger(attempts) && attempts >= 0 ? attempts : undefined;
}

export function dispatch(
  wo: string,
  text: string | undefined,
  options: { checkpointBefore: string; cap: string; now: string },
): RunStateOutcome {
  if (!/^[0-9]+$/.test(options.cap)) {
    return {
      exitCode: 1,
      stdout: { ok: false, reason: 'invalid_cap' },
      stderr: `wo-run-state dispatch invalid_cap wo=${wo} cap=${options.cap}`,
    };
  }
  const cap = Number(options.cap);
  let prior = 0;
  if (text !== undefined) {
    const parsed = parseSidecar(text);
    const attempts = parsed.kind === 'object' ? priorAttempts(parsed.value) : undefined;
    if (parsed.kind !== 'object' || attempts === undefined) {
      return {
        exitCode: 1,
        stdout: { ok: false, halt: true, reason: 'run_state_corrupt', attempts: null },
        stderr: `wo-run-state dispatch corrupt wo=${wo}`,
      };
    }
    prior = attempts;
    if (parsed.value.halted === true) {
      return {
        exitCode: 1,
        stdout: { ok: false, halt: true, reason: 'run_state_halted', attempts: prior },
        stderr: `wo-run-state dispatch halted wo=${wo} attempts=${prior}`,
      };
    }
  }
  if (prior >= cap) {
    return {
      exitCode: 1,
      stdout: { ok: false, halt: true, reason: 'retry_cap_exhausted', attempts: prior },
      stderr: `wo-run-state dispatch halt wo=${wo} attempts=${prior} cap=${cap}`,
    };
  }
  const record = {
    wo,
    attempts: prior + 1,
    checkpoint_before: options.checkpointBefore,
    dispatched_at: options.now,
    halted: false,
    halt_reason: null,
    override_used: null,
    build_returned: null,
    checkpoint_after: null,
    // The cap this dispatch ran under (an added key; the readers of this file take the keys they
    // know): the overview shows attempts n / cap with the cap the queue really used, not a setting's.
    cap,
  };
  return {
    exitCode: 0,
    stdout: record,
    write: record,
    stderr: `wo-run-state dispatch ok wo=${wo} attempts=${record.attempts}`,
  };
}

function missing(mode: string, wo: string, kind: string): RunStateOutcome {
  return {
    exitCode: 1,
    stdout: { ok: false, reason: 'missing_run_state' },
    stderr: `wo-run-state ${mode} ${kind} wo=${wo}`,
  };
}

export interface CollectFields {
  overrideUsed?: string;
  haltReason?: string;
  buildReturned?: string;
  checkpointAfter?: string;
}

/** A `--flag true|false` the kernel cannot read is refused (exit 2), never made false. */
function badBool(flag: string, value: string | undefined): RunStateOutcome | undefined {
  if (value === undefined || value === 'true' || value === 'false') return undefined;
  return {
    exitCode: 2,
    stdout: { ok: false, reason: 'bool_unreadable', flag, value },
    stderr: `wo-run-state collect bad-bool flag=${flag} value=${value}`,
  };
}

export function collect(wo: string, text: string | undefined, fields: CollectFields): RunStateOutcome {
  const parsed = parseSidecar(text);
  if (parsed.kind === 'absent') return missing('collect', wo, 'absent');
  if (parsed.kind !== 'object') return missing('collect', wo, 'malformed');
  const refusal =
    badBool('--override-used', fields.overrideUsed) ?? badBool('--build-returned', fields.buildReturned);
  if (refusal) return refusal;
  const next: Record<string, unknown> = { ...parsed.value };
  if (fields.overrideUsed !== undefined) next.override_used = fields.overrideUsed === 'true';
  if (fields.haltReason !== undefined)
    next.halt_reason = fields.haltReason === 'null' ? null : fields.haltReason;
  if (fields.buildReturned !== undefined) next.build_returned = fields.buildReturned === 'true';
  if (fields.checkpointAfter !== undefined) {
    next.checkpoint_after = fields.checkpointAfter === 'null' ? null : fields.checkpointAfter;
    next.produced_changes = fields.checkpointAfter !== 'null';
  }
  return { exitCode: 0, stdout: next, write: next, stderr: `wo-run-state collect ok wo=${wo}` };
}

export function read(wo: string, text: string | undefined): RunStateOutcome {
  const parsed = parseSidecar(text);
  if (parsed.kind !== 'object') return missing('read', wo, parsed.kind);
  return { exitCode: 0, stdout: parsed.value, stderr: `wo-run-state read ok wo=${wo}` };
}

export function halt(wo: string, text: string | undefined, reason: string): RunStateOutcome {
  const parsed = parseSidecar(text);
  if (parsed.kind === 'absent') return missing('halt', wo, 'absent');
  if (parsed.kind !== 'object') return missing('halt', wo, 'malformed');
  const next = { ...parsed.value, halted: true, halt_reason: reason };
  return { exitCode: 0, stdout: next, write: next, stderr: `wo-run-state halt ok wo=${wo} reason=${reason}` };
}

/** The sidecar as the loop reads it: `{}` when absent or broken (reconcile's rule). */
export function sidecarObject(text: string | undefined): Record<string, unknown> {
  const parsed = parseSidecar(text);
  return parsed.kind === 'object' ? parsed.value : {};
}
