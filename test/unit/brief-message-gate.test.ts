// The gate every webview message passes: malformed, oversized, early, replayed and stale
// messages are refused with a reason; only well-formed messages in order get through.
import * as assert from 'node:assert/strict';
import { MessageGate } from '../../src/extension/brief/messageGate';

const BRIEF = '0123456789abcdef';

function gate(): MessageGate {
  return new MessageGate({ briefId: BRIEF, diffPaths: new Set(['src/a.ts']) });
}

const form = {
  verdict: 'PASS',
  criticNext: 'add a test',
  evidencePaths: ['suite.txt'],
  decision: 'retain',
  outcome: 'continue',
  actions: [],
  measurements: [],
  note: null,
  blocker: null,
  evidence: null,
  recommendedNext: null,
};
const submit = (requestId: string, extra: object = {}) => ({
  type: 'submitVerdict',
  requestId,
  briefId: BRIEF,
  form,
  ...extra,
});

/** The request id a refusal echoes (undefined for an acceptance or an id not echoed). */
function requestIdIn(decision: ReturnType<MessageGate['check']>): string | undefined {
  return 'reject' in decision ? decision.requestId : undefined;
}

function reason(decision: ReturnType<MessageGate['check']>): string {
  assert.ok('reject' in decision, `expected a rejection, got ${JSON.stringify(decision)}`);
  return decision.reject;
}

describe('critic brief panel: message gate', () => {
  it('refuses anything before the ready handshake', () => {
    assert.match(reason(gate().check(submit('r1'))), /before the ready handshake/);
  });

  it('accepts a well-formed verdict after ready, once', () => {
    const g = gate();
    assert.ok('accept' in g.check({ type: 'ready' }));
    assert.ok('accept' in g.check(submit('r1')));
    assert.match(reason(g.check(submit('r1'))), /already handled/);
    assert.match(reason(g.check(submit('r2'))), /already being recorded/);
    g.settleVerdict(true);
    assert.match(reason(g.check(submit('r3'))), /already spent/);
  });

  it('refuses malformed messages with the offending field', () => {
    const g = gate();
    g.check({ type: 'ready' });
    assert.match(reason(g.check(null)), /malformed/);
    assert.match(reason(g.check('ready')), /malformed/);
    assert.match(reason(g.check({ type: 'launchMissiles' })), /malformed/);
    assert.match(reason(g.check(submit('r1', { form: { ...form, verdict: 'MAYBE' } }))), /form\.verdict/);
    assert.match(reason(g.check(submit('r1', { extra: 1 }))), /malformed/);
    assert.match(reason(g.check(submit('bad id!'))), /requestId/);
    // A refusal echoes an id only when it keeps the id rule (src/shared/request-id.ts), as the
    // overview's gate does: 'bad id!' is not echoed, a good id of a malformed message is.
    assert.equal(requestIdIn(g.check(submit('bad id!'))), undefined);
    assert.equal(requestIdIn(g.check(submit('<b>x</b>'))), undefined);
    assert.equal(requestIdIn(g.check(submit('r9', { extra: 1 }))), 'r9');
    const cyclic: Record<string, unknown> = { type: 'ready' };
    cyclic.self = cyclic;
    assert.match(reason(g.check(cyclic)), /not a JSON value/);
  });

  it('refuses oversized messages before parsing them', () => {
    const g = gate();
    g.check({ type: 'ready' });
    const huge = submit('r1', { form: { ...form, criticNext: 'x'.repeat(200_000) } });
    assert.match(reason(g.check(huge)), /oversized/);
  });

  it('refuses a verdict for another brief and a path outside the diff', () => {
    const g = gate();
    g.check({ type: 'ready' });
    assert.match(reason(g.check(submit('r1', { briefId: 'fedcba9876543210' }))), /stale/);
    assert.match(reason(g.check({ type: 'openDiff', requestId: 'r2', path: '/etc/passwd' })), /unknown path/);
    assert.ok('accept' in g.check({ type: 'openDiff', requestId: 'r3', path: 'src/a.ts' }));
  });
});
