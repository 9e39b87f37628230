// The two functions '@vscode/l10n' resolves to in the bundles: a bundle's translation is used
// when it has the message, English otherwise, and placeholders are filled either way.
import * as assert from 'node:assert/strict';
import * as l10n from '@vscode/l10n';
import { statusBarView } from '../../../src/extension/statusBar/statusBarText';
import { readSessionsAsync } from '../../../src/extension/sessions/sessionEntry';
import { resolve } from 'node:path';

const fixture = resolve(__dirname, '../../../../test/fixtures/sessions-workspace');

describe('l10n.t in modules loaded without VS Code', () => {
  afterEach(() => l10n.config({ contents: {} }));

  it('returns the English message with its placeholders filled when no bundle is configured', () => {
    assert.equal(l10n.t('{0}: closed ({1}).', 'fix-1', 'complete'), 'fix-1: closed (complete).');
    assert.equal(l10n.t('left {1} as is', 'a'), 'left {1} as is');
  });

  it('uses the configured bundle, from an object or from its JSON text', () => {
    l10n.config({ contents: { '{0}: closed ({1}).': '{0} : fermée ({1}).' } });
    assert.equal(l10n.t('{0}: closed ({1}).', 'fix-1', 'complete'), 'fix-1 : fermée (complete).');
    l10n.config({ contents: JSON.stringify({ 'not scored': { message: 'non noté', comment: ['c'] } }) });
    assert.equal(l10n.t('not scored'), 'non noté');
    assert.equal(
      l10n.t('toString'),
      'toString',
      'a message named like an Object member is not looked up there',
    );
  });

  it('translates what the status bar shows once the bundle is set', async () => {
    const sessions = (await readSessionsAsync(fixture)).map(({ entry }) => entry);
    const open = sessions.find((s) => s.kind === 'ledger' && s.ledger.status === 'open');
    assert.ok(open && open.kind === 'ledger');
    const english = statusBarView(open).tooltip;
    assert.match(english, /^Loop Ledger — .* is open: /);
    l10n.config({
      contents: {
        'Loop Ledger — {0} is open: {1} iterations this epoch, last outcome {2}, rubric {3}{4}. Click for its status.':
          'Loop Ledger — {0} est ouverte : {1}.',
      },
    });
    assert.match(statusBarView(open).tooltip, /^Loop Ledger — .* est ouverte : \d+\/\d+\.$/);
  });
});
