// Drives the repeat engine through a scripted sequence of inner runs, the way the app layer does
// (record each run; answer a pause when the script says so), without files or processes.
import { isRefusal, type Refusal } from '../../../src/engine/refusal';
import {
  answerRepeat,
  finishRepeat,
  noRunLeft,
  recordRepeatRun,
  type RecordedRun,
} from '../../../src/engine/repeat/ledger';
import type { RepeatState } from '../../../src/engine/repeat/state';
import type { Ledger } from '../../../src/engine/types';
import { NOW, startedRepeat } from './ledger-fixture';

export interface Step {
  post: string;
  summary: string;
  exitCode?: number;
  /** Answer the pause this run raises. */
  answer?: string;
  scope?: string[];
}

export interface Driven {
  ledger: Ledger;
  state: RepeatState;
  runs: RecordedRun[];
  /** Ran out of script while running (not paused, not finished). */
  exhausted: boolean;
}

function must<T extends object>(value: T | Refusal): T {
  if (isRefusal(value)) throw new Error(value.findings.map((f) => f.message).join('; '));
  return value;
}

export function drive(steps: Step[], options: { max?: number | null; iterationLimit?: number } = {}): Driven {
  let { ledger, state } = startedRepeat(options.max ?? null, options.iterationLimit ?? 1000);
  const runs: RecordedRun[] = [];
  let pre = 'S0';
  for (const step of steps) {
    if (state.status !== 'running') break;
    if (noRunLeft(ledger, state)) {
      ({ ledger, state } = must(finishRepeat(ledger, state, 'max-cap')));
      break;
    }
    const run = must(
      recordRepeatRun(ledger, state, {
        pre,
        post: step.post,
        summary: step.summary,
        exitCode: step.exitCode ?? 0,
        changeMetric: step.post === pre ? '(no change)' : `${pre} → ${step.post}`,
        filesChanged: [],
        command: 'tidy',
        now: NOW,
      }),
    );
    runs.push(run);
    ({ ledger, state } = run);
    pre = step.post;
    if (state.status === 'paused' && step.answer !== undefined) {
      ({ ledger, state } = must(answerRepeat(ledger, step.answer, { scope: step.scope })));
    }
  }
  if (state.status === 'running' && noRunLeft(ledger, state))
    ({ ledger, state } = must(finishRepeat(ledger, state, 'max-cap')));
  return { ledger, state, runs, exhausted: state.status === 'running' };
}
