// `brief --from-checkpoint N --to-checkpoint M` (the CLI as a child process, a real git
// repository): the packet is the one the piped route gives (`checkpoint diff --from N --to M`
// into `--diff-file`, its `git diff --stat` into `--change-scope`), and every wrong combination or
// missing checkpoint is refused with nothing armed.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { readLedger } from '../helpers/cli';
import { assertNoStack } from '../cli/setup';
import { assertGitUntouched, checkpoint, ledgerRecords, makeRepo, sh, type Repo } from './repo';

const scratch = (name: string, text: string): string => {
  const path = join(mkdtempSync(join(tmpdir(), 'loop-ledger-bb-')), name);
  writeFileSync(path, text);
  return path;
};

/** Two checkpoints (iterations 1 and 2) with a change, a new file and a removal between them. */
function twoCheckpoints(): { repo: Repo; verification: string } {
  const repo = makeRepo();
  repo.write('a.txt', 'two\n');
  repo.write('gone.txt', 'soon removed\n');
  assert.equal(checkpoint(repo).code, 0);
  repo.write('a.txt', 'three\n');
  repo.write('new file.txt', 'added\n');
  rmSync(join(repo.root, 'gone.txt'));
  assert.equal(checkpoint(repo).code, 0);
  return { repo, verification: scratch('suite.txt', '12 passing\n') };
}

const pending = (repo: Repo): unknown =>
  (readLedger(repo.root, repo.session) as { pending_brief?: unknown }).pending_brief ?? null;

describe('brief from two checkpoints', function () {
  this.timeout(120_000);

  it('gives the packet of the piped checkpoint diff and its --stat, and arms it', () => {
    const { repo, verification } = twoCheckpoints();
    const [first, second] = ledgerRecords(repo).map((r) => r.checkpoint.commit as string);
    const piped = repo.cli('checkpoint', 'diff', '--from', '1', '--to', '2');
    assert.equal(piped.code, 0, piped.stderr);
    const stat = sh(repo.root, [
      'diff',
      '--stat=10000,9000',
      '--no-renames',
      '--end-of-options',
      first!,
      second!,
      '--',
    ]);
    const viaFiles = repo.cli(
      'brief',
      '--diff-file',
      scratch('change.diff', piped.stdout),
      '--change-scope',
      scratch('stat.txt', stat),
      '--verification-file',
      verification,
      '--json',
    );
    assert.equal(viaFiles.code, 0, viaFiles.stderr);

    const direct = assertGitUntouched(repo.root, () =>
      repo.cli(
        'brief',
        '--from-checkpoint',
        '1',
        '--to-checkpoint',
        '2',
        '--verification-file',
        verification,
        '--json',
      ),
    );
    assert.equal(direct.code, 0, direct.stderr);
    assert.deepEqual(direct.json, viaFiles.json);
    assert.equal(direct.json.scope.provenance, 'verified');
    assert.deepEqual(direct.json.scope.diff_paths, ['a.txt', 'gone.txt', 'new file.txt']);
    assert.deepEqual(pending(repo), { brief_id: direct.json.brief_id });

    const human = repo.cli(
      'brief',
      '--from-checkpoint',
      '1',
      '--to-checkpoint',
      '2',
      '--verification-file',
      verification,
    );
    assert.equal(human.code, 0, human.stderr);
    assert.match(human.stdout, /brief [0-9a-f]{16} pending \(scope verified, 3 file\(s\) in the diff\)/);
  });

  it('works in a folder that is no git repository (the shadow repository under .loop/)', () => {
    const repo = makeRepo({ git: false });
    repo.write('a.txt', 'two\n');
    assert.equal(repo.cli('iterate', '--outcome', 'continue', '--checkpoint').code, 0);
    repo.write('b.txt', 'new\n');
    assert.equal(repo.cli('iterate', '--outcome', 'continue', '--checkpoint').code, 0);
    const r = repo.cli(
      'brief',
      '--from-checkpoint',
      '1',
      '--to-checkpoint',
      '2',
      '--verification-file',
      scratch('suite.txt', '1 passing\n'),
      '--json',
    );
    assert.equal(r.code, 0, r.stderr);
    assert.deepEqual(r.json.scope.diff_paths, ['b.txt']);
    assert.deepEqual(pending(repo), { brief_id: r.json.brief_id });
  });

  it('refuses a second source, half a pair, no source and --change-scope with exit 2, arming nothing', () => {
    const { repo, verification } = twoCheckpoints();
    const diff = scratch('change.diff', 'diff --git a/a.txt b/a.txt\n');
    const cases: [string[], RegExp][] = [
      [
        ['--diff-file', diff, '--from-checkpoint', '1', '--to-checkpoint', '2'],
        /--diff-file.*--from-checkpoint/,
      ],
      [['--from-checkpoint', '1'], /--from-checkpoint and --to-checkpoint go together/],
      [['--to-checkpoint', '2'], /--from-checkpoint and --to-checkpoint go together/],
      [[], /--diff-file PATH, or --from-checkpoint N and --to-checkpoint M/],
      [['--from-checkpoint', '1', '--to-checkpoint', '2', '--change-scope', diff], /--change-scope/],
    ];
    for (const [flags, message] of cases) {
      const r = repo.cli('brief', '--verification-file', verification, ...flags);
      assert.equal(r.code, 2, `${flags.join(' ')}: ${r.stdout}${r.stderr}`);
      assert.match(r.stderr, message);
      assertNoStack(r.stderr);
    }
    assert.equal(pending(repo), null);
  });

  it('names a missing iteration (exit 2), a pruned checkpoint (exit 3), and an unchanged pair is empty (exit 8)', () => {
    const { repo, verification } = twoCheckpoints();
    const brief = (from: string, to: string) =>
      repo.cli(
        'brief',
        '--from-checkpoint',
        from,
        '--to-checkpoint',
        to,
        '--verification-file',
        verification,
      );

    const missing = brief('1', '7');
    assert.equal(missing.code, 2, missing.stderr);
    assert.match(missing.stderr, /iteration 7 has no checkpoint/);
    assertNoStack(missing.stderr);

    const same = brief('2', '2');
    assert.equal(same.code, 8, same.stderr);
    assert.match(same.stderr, /empty/);

    assert.equal(repo.cli('checkpoint', 'prune', '--keep', '1').code, 0);
    const pruned = brief('1', '2');
    assert.equal(pruned.code, 3, pruned.stderr);
    assert.match(pruned.stderr, /iteration 1: checkpoint .* is gone \(pruned\)/);
    assert.equal(pending(repo), null);
  });
});
