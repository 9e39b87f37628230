// High-contrast themes leave some chart colours undefined (charts.orange derives from
// editor.findMatchHighlightBackground, which they set to nothing): a use without a fallback
// draws nothing on black. The overview's stylesheet gives every such colour a fallback.
import * as assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';

const css = readFileSync(
  join(resolve(__dirname, '../../../..'), 'webview', 'overview', 'overview.css'),
  'utf8',
);
/** Theme colours VS Code's high-contrast themes do not define. */
const UNSET_IN_HIGH_CONTRAST = ['--vscode-charts-orange'];

describe('overview stylesheet in high-contrast themes', () => {
  it('every colour a high-contrast theme leaves undefined has a fallback (the scan can fail)', () => {
    const bare = (text: string) =>
      UNSET_IN_HIGH_CONTRAST.flatMap((name) =>
        [...text.matchAll(new RegExp(`var\\(${name}\\s*\\)`, 'g'))].map((m) => m[0]),
      );
    assert.deepEqual(bare('.x { fill: var(--vscode-charts-orange); }'), ['var(--vscode-charts-orange)']);
    assert.ok(css.includes('var(--vscode-charts-orange,'), 'the stop colour is used with a fallback');
    assert.deepEqual(bare(css), []);
  });
});
