// The extension's brief gathers the workspace diff with git (readChange) and hands it, with the
// folder's place in the repository, to briefOp. In a repository that tracks its ledgers, the
// ledger a brief rewrote is left out — at the repository's top and in a folder below it.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { briefOp } from '../../../src/app/ledger/operations';
import { readChange, type ChangeChoice } from '../../../src/drivers/git/changes';
import { runCli, sampleContract, tempRoot, writeJson } from '../helpers/cli';

const git = (cwd: string, ...args: string[]) =>
  execFileSync('git', args, { cwd, encoding: 'utf8', env: { ...process.env, GIT_CONFIG_NOSYSTEM: '1' } });

/** A repository whose workspace folder (`sub` below the top, or the top) has a committed ledger. */
function repository(sub: string): { top: string; root: string } {
  const top = tempRoot('loop-ledger-ext-');
  git(top, 'init', '-q', '-b', 'main');
  git(top, 'config', 'user.email', 't@example.com');
  git(top, 'config', 'user.name', 'T');
  git(top, 'config', 'commit.gpgsign', 'false');
  const root = sub ? join(top, sub) : top;
  mkdirSync(join(root, 'src'), { recursive: true });
  writeFileSync(join(root, 'src', 'app.ts'), 'export const a = 1;\n');
  // another folder's .loop/ is not this workspace's own: it stays in the change
  mkdirSync(join(top, 'other', '.loop'), { recursive: true });
  writeFileSync(join(top, 'other', '.loop', 'notes.md'), 'one\n');
  const contract = writeJson(join(root, 'contract.json'), sampleContract());
  assert.equal(runCli(['open', '--root', root, '--session', 's', '--contract', contract]).code, 0);
  git(top, 'add', '-A');
  git(top, 'commit', '-q', '-m', 'first');
  return { top, root };
}

async function assemble(root: string, choice: ChangeChoice) {
  const texts = await readChange(root, choice);
  return briefOp(root, 's', {
    diff: { path: 'git diff', text: texts.diff },
    verification: { path: 'suite', text: 'all tests pass\n' },
    changeScope: { path: 'git --stat', text: texts.stat },
    ownPrefix: texts.ownPrefix,
  });
}

describe('extension brief: the workspace diff without Loop Ledger’s own writes', function () {
  this.timeout(60_000);

  for (const sub of ['', 'packages/app']) {
    const where = sub ? `in a folder below the top (${sub})` : 'at the repository top';
    it(`${where}: the rewritten ledger is left out of working tree, staged and last commit`, async () => {
      const { top, root } = repository(sub);
      const prefix = sub ? `${sub}/` : '';
      assert.equal((await readChange(root, { kind: 'workingTree' })).ownPrefix, prefix);
      writeFileSync(join(root, 'src', 'app.ts'), 'export const a = 2;\n');
      writeFileSync(join(top, 'other', '.loop', 'notes.md'), 'two\n');
      const first = await assemble(root, { kind: 'workingTree' });
      assert.equal(first.exitCode, 0, first.findings.map((f) => f.message).join('; '));
      assert.equal(first.payload!.asks.length, 6);

      const ledger = `${prefix}.loop/ledgers/s.json`;
      assert.match(git(top, 'diff', '--stat', 'HEAD'), new RegExp(ledger.replace(/[./]/g, '\\$&')));
      const expected = ['other/.loop/notes.md', `${prefix}src/app.ts`];
      const second = await assemble(root, { kind: 'workingTree' });
      assert.equal(second.exitCode, 0, second.findings.map((f) => f.message).join('; '));
      const packet = second.payload!;
      assert.deepEqual(packet.scope.diff_paths, expected);
      assert.deepEqual(packet.scope.declared_paths, expected);
      assert.equal(packet.brief_id, first.payload!.brief_id);
      assert.ok(!packet.diff.includes(`a/${ledger}`));
      assert.match(packet.asks[6]!, new RegExp(`: ${ledger.replace(/[./]/g, '\\$&')}\\.$`));

      git(top, 'add', '-A');
      const staged = await assemble(root, { kind: 'staged' });
      assert.deepEqual(staged.payload?.scope.diff_paths, expected);
      git(top, 'commit', '-q', '-m', 'the change and the ledger');
      const last = await assemble(root, { kind: 'lastCommit' });
      assert.deepEqual(last.payload?.scope.diff_paths, expected);
      assert.equal(last.payload?.asks.length, 7);
    });
  }
});
