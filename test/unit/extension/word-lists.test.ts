import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { CRITIC_VERDICTS, DECISIONS, OUTCOMES } from '../../../src/engine/types';
import { CRITIC_VERDICT_WORDS, DECISION_WORDS, OUTCOME_WORDS } from '../../../src/shared/protocol';

const repo = join(__dirname.slice(0, __dirname.lastIndexOf('/out/test')));

describe('word lists: outcomes, verdicts and decisions are defined once, in the engine', () => {
  it("the protocol hands out the engine's own arrays", () => {
    assert.equal(OUTCOME_WORDS, OUTCOMES);
    assert.equal(CRITIC_VERDICT_WORDS, CRITIC_VERDICTS);
    assert.equal(DECISION_WORDS, DECISIONS);
  });

  it('no other source file spells a list out again', () => {
    const files = ['src/shared/protocol.ts', 'webview/verdict-form.ts', 'webview/main.ts'];
    for (const file of files) {
      const text = readFileSync(join(repo, file), 'utf8');
      assert.doesNotMatch(text, /'continue',\s*'complete'/, `${file} lists outcomes`);
      assert.doesNotMatch(text, /'retain',\s*'revert'/, `${file} lists decisions`);
      assert.doesNotMatch(text, /'PASS',\s*'FAIL'/, `${file} lists verdicts`);
    }
  });

  it("the webview bundle carries the engine's words and no Node code", () => {
    const bundle = readFileSync(join(repo, 'dist', 'webview', 'brief.js'), 'utf8');
    assert.match(bundle, /"retain","revert","revise","escalate"/);
    assert.doesNotMatch(bundle, /require\(|from"node:/);
  });
});
