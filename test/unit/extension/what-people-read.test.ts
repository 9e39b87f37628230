// The words the tree and the status bar show, from the fixture ledgers the integration tier
// also uses: numbers rounded for reading, a closed session that does not look like a running
// loop, an unreadable ledger's reason first.
import * as assert from 'node:assert/strict';
import { resolve } from 'node:path';
import { brokenDescription, verdictText } from '../../../src/extension/sessions/labels';
import {
  readSessionsAsync,
  type ReadableSession,
  type SessionEntry,
} from '../../../src/extension/sessions/sessionEntry';
import { statusBarView } from '../../../src/extension/statusBar/statusBarText';
import { formatScore } from '../../../src/shared/numbers';

const fixture = resolve(__dirname, '../../../../test/fixtures/sessions-workspace');

describe('what people read', () => {
  let sessions: SessionEntry[] = [];
  before(async () => {
    sessions = (await readSessionsAsync(fixture)).map(({ entry }) => entry);
  });
  const readable = (id: string) => {
    const entry = sessions.find((s) => s.session === id);
    assert.ok(entry && entry.kind === 'ledger', id);
    return entry;
  };
  const withTotal = (entry: ReadableSession, total: number): ReadableSession => ({
    ...entry,
    status: { ...entry.status, rubric_verdict: 'pass', weighted_total: total },
  });

  it('rounds scores to at most two decimals and keeps whole numbers whole', () => {
    assert.equal(formatScore(34.583333333), '34.58');
    assert.equal(formatScore(100), '100');
    assert.equal(formatScore(0.5), '0.5');
    assert.equal(formatScore(1234.5), '1234.5');
    assert.equal(verdictText(withTotal(readable('beta'), 34.5833)), 'pass 34.58');
  });

  it('shows an open session as running, with its rounded total', () => {
    const view = statusBarView(withTotal(readable('beta'), 34.5833));
    assert.equal(view.text, '$(sync) beta 2/10 · continue · pass 34.58');
    assert.match(view.tooltip, /beta is open/);
  });

  it('shows a closed session as closed and how it ended, never with the running icon', () => {
    const delta = statusBarView(readable('delta'));
    assert.equal(delta.text, '$(pass) delta closed: complete · 1 iteration · pass 100');
    assert.match(delta.tooltip, /closed \(complete\).*Nothing is running/);
    for (const id of ['alpha', 'epsilon', 'eta', 'zeta']) {
      const view = statusBarView(readable(id));
      assert.ok(!view.text.startsWith('$(sync)'), `${id}: ${view.text}`);
      assert.match(view.text, new RegExp(`^\\$\\([a-z-]+\\) ${id} closed: `));
    }
  });

  it('shows a paused session as paused', () => {
    assert.match(statusBarView(readable('gamma')).text, /^\$\(debug-pause\) gamma paused · 1\/10/);
  });

  it('puts an unreadable ledger’s reason before the words "unreadable ledger"', () => {
    const broken = sessions.find((s) => s.session === 'broken');
    assert.ok(broken && broken.kind === 'broken');
    assert.match(brokenDescription(broken.problem), /^not valid JSON \(.+\) — unreadable ledger$/);
    assert.equal(
      brokenDescription('unreadable ledger: the file cannot be read (EACCES)'),
      'cannot be read (EACCES) — unreadable ledger',
    );
    assert.equal(brokenDescription('no ledger file'), 'no ledger file');
  });
});
