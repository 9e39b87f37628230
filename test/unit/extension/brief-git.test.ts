// The brief's git calls under the git config a user or a repository may set: every setting that
// changes porcelain output is pinned, so the diff the engine checks is the same text as without
// it, and no program named in config (external diff, textconv) runs.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { briefOp } from '../../../src/app/ledger/operations';
import { readChange, type ChangeChoice } from '../../../src/drivers/git/changes';
import { loopWith } from '../cli/setup';
import { tempRoot } from '../helpers/cli';

const git = (cwd: string, ...args: string[]) =>
  execFileSync('git', args, { cwd, encoding: 'utf8', env: { ...process.env, GIT_CONFIG_NOSYSTEM: '1' } });

/** A repository with a real top-level `a/` folder, two commits and staged + unstaged changes. */
function repository(): { root: string; marker: string } {
  const root = tempRoot('loop-ledger-git-');
  const marker = join(root, '..', `${root.split('/').pop()}-ran`);
  git(root, 'init', '-q', '-b', 'main');
  git(root, 'config', 'user.email', 't@example.com');
  git(root, 'config', 'user.name', 'T');
  git(root, 'config', 'commit.gpgsign', 'false');
  mkdirSync(join(root, 'a'));
  mkdirSync(join(root, 'src'));
  writeFileSync(join(root, 'a', 'inner.txt'), 'one\n');
  writeFileSync(join(root, 'src', 'x.txt'), 'alpha\n');
  git(root, 'add', '.');
  git(root, 'commit', '-q', '-m', 'first');
  writeFileSync(join(root, 'a', 'inner.txt'), 'one\ntwo\n');
  writeFileSync(join(root, 'src', 'x.txt'), 'alpha\nbeta\n');
  git(root, 'commit', '-q', '-am', 'second');
  writeFileSync(join(root, 'a', 'inner.txt'), 'one\ntwo\nthree\n');
  git(root, 'add', 'a/inner.txt');
  writeFileSync(join(root, 'src', 'x.txt'), 'alpha\nbeta\ngamma\n');
  return { root, marker };
}

const CHOICES: ChangeChoice[] = [
  { kind: 'workingTree' },
  { kind: 'staged' },
  { kind: 'lastCommit' },
  { kind: 'range', range: 'HEAD~1..HEAD' },
];

/** Each setting, applied in the repository's own config. */
function settings(root: string, marker: string): [string, () => void][] {
  const program = join(root, '..', `${root.split('/').pop()}-program.sh`);
  writeFileSync(program, `#!/bin/sh\ntouch '${marker}'\necho EXTERNAL\n`);
  chmodSync(program, 0o755);
  return [
    ['diff.mnemonicPrefix', () => git(root, 'config', 'diff.mnemonicPrefix', 'true')],
    ['diff.noprefix', () => git(root, 'config', 'diff.noprefix', 'true')],
    ['diff.external', () => git(root, 'config', 'diff.external', program)],
    [
      'a textconv driver',
      () => {
        writeFileSync(join(root, '.git', 'info', 'attributes'), '*.txt diff=shout\n');
        git(root, 'config', 'diff.shout.textconv', program);
      },
    ],
    ['diff.relative', () => git(root, 'config', 'diff.relative', 'true')],
    ['color.ui=always', () => git(root, 'config', 'color.ui', 'always')],
    ['log.showSignature', () => git(root, 'config', 'log.showSignature', 'true')],
  ];
}

describe('brief: git output does not depend on git config', function () {
  this.timeout(60_000);

  it('gives the same diff and stat under each setting, with a/ b/ prefixes, and runs no configured program', async () => {
    const { root: plain } = repository();
    const baseline = await Promise.all(CHOICES.map((choice) => readChange(plain, choice)));
    assert.match(baseline[0]!.diff, /^diff --git a\/a\/inner\.txt b\/a\/inner\.txt$/m);
    const names = settings(plain, '/dev/null').map(([name]) => name);
    for (const name of names) {
      const { root, marker } = repository();
      settings(root, marker).find(([n]) => n === name)![1]();
      for (const [i, choice] of CHOICES.entries()) {
        const texts = await readChange(root, choice);
        assert.equal(texts.diff, baseline[i]!.diff, `${name}: ${choice.kind} diff`);
        assert.equal(texts.stat, baseline[i]!.stat, `${name}: ${choice.kind} stat`);
        assert.equal(texts.diff.includes('\u001b['), false, `${name}: no colour codes`);
      }
      assert.equal(existsSync(marker), false, `${name}: no program from config ran`);
    }
  });

  it('the engine accepts the brief assembled under diff.mnemonicPrefix and diff.noprefix', async () => {
    for (const setting of ['diff.mnemonicPrefix', 'diff.noprefix']) {
      const { root } = repository();
      git(root, 'config', setting, 'true');
      const texts = await readChange(root, { kind: 'workingTree' });
      const loop = loopWith();
      const outcome = briefOp(loop.root, loop.session, {
        diff: { path: 'git diff', text: texts.diff },
        verification: { path: 'suite', text: 'all tests pass\n' },
        changeScope: { path: 'git --stat', text: texts.stat },
      });
      assert.equal(outcome.exitCode, 0, `${setting}: ${outcome.findings.map((f) => f.message).join('; ')}`);
    }
  });
});
