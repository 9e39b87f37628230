// The follow-up's rules (the original repeat tool's exit-reason table) and the kept question:
// which exits run it, which skip it, which ask; the question's place in the `repeat` key; which
// ledgers `resume` hands to the driver.
import assert from 'node:assert/strict';
import { followUpAnswered, followUpPlan, keepFollowUpQuestion } from '../../../src/engine/repeat/follow-up';
import { resumeContinuesRepeat, withRepeatState } from '../../../src/engine/repeat/ledger';
import { followUpQuestion } from '../../../src/engine/repeat/questions';
import {
  EXIT_REASONS,
  repeatStateProblems,
  type ExitReason,
  type RepeatState,
} from '../../../src/engine/repeat/state';
import { openedLedger, startedRepeat } from './ledger-fixture';

function finished(reason: ExitReason, followUp: string | null = 'npm run release'): RepeatState {
  const { state } = startedRepeat();
  return { ...state, status: 'finished', exit_reason: reason, follow_up: followUp, iteration: 3 };
}

describe('repeat follow-up (engine)', () => {
  it('every exit reason: clean settles run it, a Stay asks, partial exits skip it; none without a follow-up', () => {
    for (const reason of Object.keys(EXIT_REASONS) as ExitReason[]) {
      const plan = followUpPlan(finished(reason));
      if (reason === 'settled-via-cycle') {
        assert.equal(plan.kind, 'confirm', reason);
        if (plan.kind === 'confirm') {
          assert.deepEqual(plan.question.options, ['run', 'decline']);
          assert.match(plan.question.text, /npm run release/);
        }
      } else if (EXIT_REASONS[reason].clean) assert.equal(plan.kind, 'run', reason);
      else assert.deepEqual(plan, { kind: 'skip', reason: 'partial convergence: the follow-up is not run' });
      assert.equal(followUpPlan(finished(reason, null)).kind, 'none');
    }
  });

  it('a kept question is asked again; once answered (or decided) the follow-up is never planned twice', () => {
    const state = finished('settled-via-cycle');
    const question = followUpQuestion(3, 'npm run release');
    const kept = keepFollowUpQuestion(
      { ...state, follow_up_result: { command: 'x', ran: false, exit_code: null, reason: 'waiting' } },
      question,
    );
    assert.deepEqual(followUpPlan(kept), { kind: 'confirm', question });
    const answered = followUpAnswered(kept, 'decline');
    assert.equal(answered.pending, null);
    assert.match(answered.events.at(-1) ?? '', /follow-up: user chose decline/);
    assert.equal(followUpPlan(answered).kind, 'none');
  });

  it('the repeat key: a follow-up question only on a finished repeat; pause questions only before', () => {
    const question = followUpQuestion(3, 'npm run release');
    const kept = keepFollowUpQuestion(finished('settled-via-cycle'), question);
    assert.deepEqual(repeatStateProblems(kept), []);
    const running = { ...kept, status: 'running' as const };
    assert.match(
      repeatStateProblems(running).join(),
      /must be the follow-up question once the repeat finished/,
    );
    const wrong = { ...finished('settled'), pending: { ...question, kind: 'cycle' as const } };
    assert.match(repeatStateProblems(wrong).join(), /repeat\.pending/);
  });

  it('resume hands a ledger to the repeat driver only while its repeat is unfinished (or unreadable)', () => {
    const { ledger, state } = startedRepeat();
    assert.equal(resumeContinuesRepeat(openedLedger()), false, 'no repeat: the plain resume');
    assert.equal(resumeContinuesRepeat(ledger), true, 'running (interrupted)');
    const done = finished('settled');
    assert.equal(resumeContinuesRepeat(withRepeatState(ledger, done)), false, 'finished');
    const waiting = keepFollowUpQuestion(finished('settled-via-cycle'), followUpQuestion(3, 'r'));
    assert.equal(resumeContinuesRepeat(withRepeatState(ledger, waiting)), true, 'follow-up waiting');
    assert.equal(
      resumeContinuesRepeat({ ...ledger, repeat: { ...state, status: 'bogus' } } as typeof ledger),
      true,
      'malformed: the driver names the bad key',
    );
  });
});
