// The repeat on the ledger: starting one (the top-level `repeat` key), recording each inner run
// as an `iterate` with the `repeat` record key, and applying an answer to a pause. Pure: the app
// layer reads and writes the ledger through the store around these.
import { close } from '../close';
import { iterate } from '../iterate';
import { epochRecords, sortKeysDeep } from '../ledger-view';
import { isRefusal, refuse, EXIT, type Refusal } from '../refusal';
import { resume } from '../resume';
import { sha256Hex16 } from '../sha';
import type { Ledger, Outcome } from '../types';
import { applyAnswer, interpretAnswer, type ScopeChange } from './answer';
import { classifyRepeat, type RepeatDecision } from './classify';
import type { RepeatRunFacts } from './run-facts';
import {
  EXIT_REASONS,
  SUMMARY_KEEP,
  initialRepeatState,
  repeatRecords,
  repeatStateProblems,
  repeatUnfinished,
  type ExitReason,
  type RepeatLedger,
  type RepeatRecord,
  type RepeatState,
} from './state';
import { summaryTag } from './summary';

/** The ledger's repeat state: absent (null), or validated (a refusal naming each bad key). */
export function readRepeatState(ledger: Ledger): RepeatState | null | Refusal {
  const value = (ledger as RepeatLedger).repeat;
  if (value === undefined) return null;
  const problems = repeatStateProblems(value);
  return problems.length > 0 ? refuse(EXIT.usage, problems) : (value as RepeatState);
}

/**
 * A readable repeat still running, paused, or finished with a question pending: what Repeat
 * Until Settled continues without asking for a new spec. A malformed key is not in progress:
 * a new start is attempted, and the driver's refusal names the bad key.
 */
export function repeatInProgress(ledger: Ledger): boolean {
  const state = readRepeatState(ledger);
  return state !== null && !isRefusal(state) && repeatUnfinished(state);
}

/**
 * Whether `resume` hands this ledger to the repeat driver: its repeat is unfinished, or its
 * `repeat` key is malformed (the driver's refusal names each bad key rather than resume
 * re-opening a loop whose repeat state nobody can read).
 */
export function resumeContinuesRepeat(ledger: Ledger): boolean {
  const state = readRepeatState(ledger);
  if (state === null) return false;
  return isRefusal(state) || repeatUnfinished(state);
}

export function withRepeatState(ledger: Ledger, state: RepeatState): Ledger {
  return { ...ledger, repeat: sortKeysDeep(state) } as Ledger;
}

export type StartInput = Omit<Parameters<typeof initialRepeatState>[0], 'firstRecord'>;

/** Why a new repeat cannot start on this ledger (one still running or paused; a closed ledger). */
export function startRefusal(ledger: Ledger): Refusal | null {
  const existing = readRepeatState(ledger);
  if (isRefusal(existing)) return existing;
  if (existing && repeatUnfinished(existing)) {
    const what =
      existing.status === 'finished' ? 'finished, its follow-up waiting for an answer' : existing.status;
    return refuse(EXIT.wrongState, [
      `${ledger.session}: a repeat is ${what} (iteration ${existing.iteration}); continue it with repeat --session ${ledger.session}${existing.pending ? ' --answer WORD' : ''}`,
    ]);
  }
  if (ledger.status !== 'open') {
    return refuse(EXIT.wrongState, [
      `${ledger.session}: the ledger is closed (${ledger.final_outcome ?? 'no outcome'}); re-open it with open before a new repeat`,
    ]);
  }
  return null;
}

/** Starts a repeat on an open ledger; one still running or paused must be finished first. */
export function startRepeat(
  ledger: Ledger,
  input: StartInput,
): { ledger: Ledger; state: RepeatState } | Refusal {
  const refusal = startRefusal(ledger);
  if (refusal) return refusal;
  const state = initialRepeatState({ ...input, firstRecord: ledger.iterations.length + 1 });
  return { ledger: withRepeatState(ledger, state), state };
}

/** True when no inner run may follow run number `iteration` (max= cap or contract limit). */
export function isLastAllowed(ledger: Ledger, state: RepeatState, iteration: number): boolean {
  if (state.max !== null && iteration >= state.max) return true;
  return epochRecords(ledger).length + 1 >= ledger.contract.iteration_limit;
}

/** No run is left at all (checked before running: `iteration > max`). */
export function noRunLeft(ledger: Ledger, state: RepeatState): boolean {
  if (state.max !== null && state.iteration + 1 > state.max) return true;
  return epochRecords(ledger).length >= ledger.contract.iteration_limit;
}

export interface RunRecordInput extends RepeatRunFacts {
  changeMetric: string;
  filesChanged: string[];
  command: string;
  now: Date;
}

export interface RecordedRun {
  ledger: Ledger;
  state: RepeatState;
  decision: RepeatDecision;
  record: RepeatRecord;
}

/** Classifies one inner run and records it: one `iterate`, `--action repeat-<n>`. */
export function recordRepeatRun(
  ledger: Ledger,
  state: RepeatState,
  run: RunRecordInput,
): RecordedRun | Refusal {
  if (ledger.status !== 'open') {
    return refuse(EXIT.wrongState, [
      `${ledger.session}: the ledger was closed while the step ran; nothing recorded`,
    ]);
  }
  const earlier = repeatRecords(ledger, state);
  const iteration = state.iteration + 1;
  const decision = classifyRepeat(state, earlier, run, isLastAllowed(ledger, state, iteration));
  const repeat: RepeatRecord = {
    iteration,
    classification: decision.classification,
    resolution: decision.resolution,
    state: run.post,
    change_metric: run.changeMetric,
    summary_digest: sha256Hex16(run.summary),
    summary: run.summary.slice(0, SUMMARY_KEEP),
    cycle_with: decision.cycleWith,
    directive: state.directive,
    exit_code: run.exitCode,
  };
  const result = iterate(ledger, {
    outcome: decision.reported,
    actions: [`repeat-${ledger.iterations.length + 1}`],
    state: run.post,
    filesChanged: run.filesChanged,
    commandsRun: [run.command],
    note: `${decision.classification}: ${summaryTag(run.summary)}`,
    ownCycleRule: true,
    ...(decision.reported === 'pause' && decision.pending
      ? { recommendedNext: decision.pending.recommendation }
      : {}),
    now: run.now,
  });
  if (isRefusal(result)) return result;
  const record = sortKeysDeep({ ...result.record, repeat });
  const next: RepeatState = {
    ...state,
    ...decision.counters,
    directive: decision.route === 'next' ? decision.directive : null,
    escaped: decision.escaped,
    pending: decision.pending,
    status: decision.route === 'pause' ? 'paused' : decision.route === 'exit' ? 'finished' : 'running',
    exit_reason: decision.exitReason,
    events: [...state.events, ...decision.events],
  };
  const iterations = [...result.ledger.iterations.slice(0, -1), record];
  return {
    ledger: withRepeatState({ ...result.ledger, iterations }, next),
    state: next,
    decision,
    record: repeat,
  };
}

export interface AnswerResult {
  ledger: Ledger;
  state: RepeatState;
  exitReason: ExitReason | null;
}

/**
 * Answers a paused repeat: reads the answer (unclear → refused with the read-back), re-opens the
 * paused ledger, and either continues (status running) or ends (stay → complete, abandon → stop).
 */
export function answerRepeat(ledger: Ledger, answer: string, change: ScopeChange): AnswerResult | Refusal {
  const state = readRepeatState(ledger);
  if (isRefusal(state)) return state;
  if (state === null || state.status !== 'paused' || state.pending === null) {
    return refuse(EXIT.wrongState, [`${ledger.session}: no repeat is waiting for an answer`]);
  }
  const reading = interpretAnswer(state.pending.options, answer);
  if (reading.kind === 'unclear') return refuse(EXIT.usage, [`--answer ${reading.message}`]);
  const effect = applyAnswer(state, reading.option, change);
  if (typeof effect === 'string') return refuse(EXIT.usage, [`--answer ${reading.option}: ${effect}`]);
  let reopened = ledger;
  if (ledger.status === 'closed') {
    const resumed = resume(ledger);
    if (isRefusal(resumed)) return resumed;
    reopened = resumed.ledger;
  }
  if (effect.exitReason === null) {
    return { ledger: withRepeatState(reopened, effect.state), state: effect.state, exitReason: null };
  }
  return finishRepeat(reopened, effect.state, effect.exitReason);
}

/** Ends the repeat without a new record (an answer, or no run left): closes the ledger. */
export function finishRepeat(ledger: Ledger, state: RepeatState, reason: ExitReason): AnswerResult | Refusal {
  const outcome: Outcome = EXIT_REASONS[reason].clean ? 'complete' : 'stop';
  const finished: RepeatState = {
    ...state,
    status: 'finished',
    exit_reason: reason,
    pending: null,
    directive: null,
  };
  const closed = close(ledger, { outcome, note: `repeat: ${EXIT_REASONS[reason].label}` });
  if (isRefusal(closed)) return closed;
  return { ledger: withRepeatState(closed.ledger, finished), state: finished, exitReason: reason };
}

/** A paused repeat that ran without a way to ask: the ledger already says pause; mark indeterminate. */
export function markIndeterminate(
  ledger: Ledger,
  state: RepeatState,
): { ledger: Ledger; state: RepeatState } {
  const next: RepeatState = { ...state, exit_reason: 'indeterminate' };
  return { ledger: withRepeatState(ledger, next), state: next };
}
