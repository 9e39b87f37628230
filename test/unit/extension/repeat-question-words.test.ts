// While repeat's stall question is open in the window, the session's ledger epoch is still open
// (last outcome `continue`) and its repeat state is paused with the question pending: the tree and
// the status bar must say it waits for an answer, not "stalled ×2" and "2/5 · continue".
import * as assert from 'node:assert/strict';
import { resolve } from 'node:path';
import { withRepeatState } from '../../../src/engine/repeat/ledger';
import type { RepeatState } from '../../../src/engine/repeat/state';
import { repeatStateText, repeatWaitsForAnswer } from '../../../src/extension/repeat/labels';
import { sessionDescription } from '../../../src/extension/sessions/labels';
import { readSessionsAsync, type ReadableSession } from '../../../src/extension/sessions/sessionEntry';
import { statusBarView } from '../../../src/extension/statusBar/statusBarText';
import { startedRepeat } from '../repeat/ledger-fixture';

const fixture = resolve(__dirname, '../../../../test/fixtures/sessions-workspace');

describe('repeat: a question open in the window', () => {
  let open: ReadableSession;
  before(async () => {
    const sessions = (await readSessionsAsync(fixture)).map(({ entry }) => entry);
    const beta = sessions.find((s) => s.session === 'beta');
    assert.ok(beta && beta.kind === 'ledger');
    open = beta;
  });

  function withRepeat(state: RepeatState): ReadableSession {
    return { ...open, ledger: withRepeatState(open.ledger, state) };
  }
  const base = (): RepeatState => startedRepeat().state;
  const asking = (): RepeatState => ({
    ...base(),
    status: 'paused',
    consecutive_stalls: 2,
    pending: {
      kind: 'stall-first',
      iteration: 2,
      options: ['retry', 'skip', 'abandon', 'change-scope'],
      recommendation: 'retry',
      text: 'Stalled after 2 consecutive iterations.',
    },
  });

  it('the tree row and the status bar say it waits for an answer', () => {
    const entry = withRepeat(asking());
    assert.equal(repeatWaitsForAnswer(entry.ledger), true);
    assert.equal(repeatStateText(entry.ledger), 'repeat: stalled ×2, waiting for an answer');
    assert.match(sessionDescription(entry), /repeat: stalled ×2, waiting for an answer$/);
    const view = statusBarView(entry);
    assert.match(view.text, /^\$\(question\) beta .* · waiting for an answer · /);
    assert.doesNotMatch(view.text, /continue/);
    assert.match(view.tooltip, /waits for an answer/);
  });

  it('a running repeat with stalls still reads as running', () => {
    const entry = withRepeat({ ...base(), consecutive_stalls: 2 });
    assert.equal(repeatWaitsForAnswer(entry.ledger), false);
    assert.equal(repeatStateText(entry.ledger), 'repeat: stalled ×2');
    assert.match(statusBarView(entry).text, /^\$\(sync\) beta /);
  });
});
