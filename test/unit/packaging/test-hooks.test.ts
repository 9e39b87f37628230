// Test seams stay out of what users get: the production bundle carries none of them, and the
// only way in is the test-only module the extension loads in extension test mode.
import * as assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';

const repo = resolve(__dirname, '../../../..');

describe('test hooks', () => {
  const bundle = readFileSync(join(repo, 'dist', 'extension.js'), 'utf8');

  it('are not in the production bundle', () => {
    // Property names survive minification, so these would show if the code were bundled.
    for (const word of ['simulateUntrusted', 'ScriptedPrompter', 'no item labelled'])
      assert.ok(!bundle.includes(word), `dist/extension.js contains ${word}`);
  });

  it('are built as a separate test-only module the bundle loads by path, in test mode only', () => {
    assert.ok(existsSync(join(repo, 'out', 'test', 'hooks', 'testHooks.js')));
    assert.ok(bundle.includes('out/test/hooks/testHooks.js'));
    const vscodeignore = readFileSync(join(repo, '.vscodeignore'), 'utf8');
    assert.ok(!/^!out\b/m.test(vscodeignore), 'out/ is never shipped');
  });
});
