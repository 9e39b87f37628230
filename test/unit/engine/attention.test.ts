// Which ledgers need a person, and which of their events are new: the pure rule the extension's
// notifications and the activity-bar badge both read.
import assert from 'node:assert/strict';
import { attentionEvents, needsPerson, newAttentionEvents } from '../../../src/engine/attention';
import type { IterationRecord, Ledger } from '../../../src/engine/types';

function record(n: number, fields: Partial<IterationRecord> = {}): IterationRecord {
  return {
    n,
    epoch: 1,
    timestamp: null,
    reported_outcome: 'continue',
    outcome: 'continue',
    stall: null,
    blocker: null,
    ...fields,
  } as IterationRecord;
}

function ledger(fields: Partial<Ledger> = {}): Ledger {
  return {
    session: 's1',
    status: 'open',
    final_outcome: null,
    epoch: 1,
    iterations: [],
    pending_brief: null,
    ...fields,
  } as Ledger;
}

describe('engine: attention (does a loop need a person)', () => {
  it('an open loop with nothing pending needs no one', () => {
    assert.deepEqual(attentionEvents(ledger({ iterations: [record(1)] })), []);
    assert.equal(needsPerson(ledger()), false);
  });

  it('a stall that closed the epoch is one stall event keyed session:epoch:n:kind', () => {
    const l = ledger({
      status: 'closed',
      final_outcome: 'revise',
      iterations: [record(1), record(2, { outcome: 'revise', stall: 'circular-state' })],
    });
    assert.deepEqual(attentionEvents(l), [
      { kind: 'stall', key: 's1:1:2:stall', session: 's1', epoch: 1, n: 2, detail: 'circular-state' },
    ]);
    assert.equal(needsPerson(l), true);
  });

  it('a cap reached is a budget event, not a stall', () => {
    for (const stall of ['cost-exhausted', 'tokens-exhausted', 'time-exhausted', 'budget-stop'] as const) {
      const l = ledger({
        status: 'closed',
        final_outcome: 'stop',
        iterations: [record(1, { outcome: 'stop', stall })],
      });
      assert.deepEqual(
        attentionEvents(l).map((e) => [e.kind, e.detail]),
        [['budget', stall]],
      );
    }
  });

  it('an escalate (recorded or closed by hand) is an escalation with its blocker', () => {
    const recorded = ledger({
      status: 'closed',
      final_outcome: 'escalate',
      iterations: [record(1, { outcome: 'escalate', reported_outcome: 'escalate', blocker: 'no access' })],
    });
    assert.deepEqual(
      attentionEvents(recorded).map((e) => [e.key, e.detail]),
      [['s1:1:1:escalation', 'no access']],
    );
    const closed = ledger({ status: 'closed', final_outcome: 'escalate', close_blocker: 'owner away' });
    assert.deepEqual(
      attentionEvents(closed).map((e) => [e.key, e.detail]),
      [['s1:1:0:escalation', 'owner away']],
    );
  });

  it('a completed or paused loop needs no one', () => {
    for (const outcome of ['complete', 'pause'] as const) {
      const l = ledger({ status: 'closed', final_outcome: outcome, iterations: [record(1, { outcome })] });
      assert.deepEqual(attentionEvents(l), []);
    }
  });

  it('an armed brief waits for a verdict while the loop is open', () => {
    const l = ledger({ iterations: [record(1)], pending_brief: { brief_id: 'abcd' } });
    assert.deepEqual(
      attentionEvents(l).map((e) => [e.key, e.detail]),
      [['s1:1:1:verdict', 'abcd']],
    );
  });

  it('a re-open (new epoch, no record yet) clears the previous epoch’s event', () => {
    const l = ledger({
      epoch: 2,
      iterations: [record(1, { outcome: 'revise', stall: 'circular-state' })],
    });
    assert.deepEqual(attentionEvents(l), []);
  });

  it('newAttentionEvents keeps only unannounced keys of enabled kinds', () => {
    const l = ledger({
      status: 'closed',
      final_outcome: 'stop',
      iterations: [record(1, { outcome: 'stop', stall: 'retries-exhausted' })],
    });
    const events = attentionEvents(l);
    assert.equal(newAttentionEvents(events, new Set()).length, 1);
    assert.equal(newAttentionEvents(events, new Set(['s1:1:1:stall'])).length, 0);
    assert.equal(newAttentionEvents(events, new Set(), (kind) => kind !== 'stall').length, 0);
  });
});
