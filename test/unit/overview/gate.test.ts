// The overview's message gate: only well-formed messages after the handshake, no replays, and
// only iterations and sessions the page knows.
import assert from 'node:assert/strict';
import { OverviewGate } from '../../../src/extension/overview/overviewGate';

function gate(): OverviewGate {
  return new OverviewGate({
    hasIteration: (n) => n >= 1 && n <= 3,
    listsSession: (root, session) => root === '/ws' && session === 'demo',
  });
}

const rejected = (d: ReturnType<OverviewGate['check']>): string => ('reject' in d ? d.reject : 'accepted');

describe('overview message gate', () => {
  it('refuses anything before the ready handshake', () => {
    const g = gate();
    assert.match(
      rejected(g.check({ type: 'showIteration', requestId: 'r1', n: 1 })),
      /before the ready handshake/,
    );
    assert.equal(rejected(g.check({ type: 'ready', buckets: 300 })), 'accepted');
    assert.equal(rejected(g.check({ type: 'showIteration', requestId: 'r1', n: 1 })), 'accepted');
  });

  it('refuses malformed, oversized, replayed and unknown requests', () => {
    const g = gate();
    g.check({ type: 'ready' });
    assert.match(rejected(g.check({ type: 'showIteration', requestId: 'r1', n: 1.5 })), /^malformed: n:/);
    assert.match(rejected(g.check({ type: 'ready', extra: 1 })), /^malformed/);
    assert.match(rejected(g.check({ type: 'nope' })), /^malformed/);
    assert.match(rejected(g.check({ type: 'openBrief', requestId: 'x'.repeat(5000), n: 1 })), /^oversized/);
    assert.equal(rejected(g.check({ type: 'openBrief', requestId: 'r2', n: 2 })), 'accepted');
    assert.match(rejected(g.check({ type: 'openBrief', requestId: 'r2', n: 2 })), /already handled/);
    assert.match(rejected(g.check({ type: 'showIteration', requestId: 'r3', n: 4 })), /unknown iteration/);
    assert.match(
      rejected(g.check({ type: 'openOverview', requestId: 'r4', root: '/elsewhere', session: 'demo' })),
      /unknown session/,
    );
    assert.equal(
      rejected(g.check({ type: 'openOverview', requestId: 'r5', root: '/ws', session: 'demo' })),
      'accepted',
    );
    const cyclic: Record<string, unknown> = { type: 'ready' };
    cyclic.self = cyclic;
    assert.match(rejected(g.check(cyclic)), /not a JSON value/);
  });

  it('admits a checkpoint action only with a known action on an iteration of the ledger', () => {
    const g = gate();
    g.check({ type: 'ready' });
    for (const action of ['compareWithPrevious', 'compareWithWorkspace', 'restore'])
      assert.equal(
        rejected(g.check({ type: 'checkpoint', requestId: `c-${action}`, n: 2, action })),
        'accepted',
      );
    assert.match(
      rejected(g.check({ type: 'checkpoint', requestId: 'c1', n: 2, action: 'reset --hard' })),
      /^malformed: action:/,
    );
    assert.match(
      rejected(g.check({ type: 'checkpoint', requestId: 'c2', n: 4, action: 'restore' })),
      /unknown iteration/,
    );
    assert.match(
      rejected(g.check({ type: 'checkpoint', requestId: 'c3', n: 2, action: 'restore', path: '/etc' })),
      /^malformed/,
    );
  });
});
