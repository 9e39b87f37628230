// A repository that tracks its ledgers (as the demo does): assembling a brief rewrites the
// ledger, so the next "working tree vs HEAD" diff holds the ledger too. The brief leaves Loop
// Ledger's own `.loop/` writes out of the diff and the scope check, and the packet says so —
// through the CLI, with the diff and stat produced by real git.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  readLedger,
  runCli,
  sampleContract,
  tempRoot,
  writeJson,
  writeText,
  type CliResult,
} from '../helpers/cli';

const git = (cwd: string, ...args: string[]) =>
  execFileSync('git', args, { cwd, encoding: 'utf8', env: { ...process.env, GIT_CONFIG_NOSYSTEM: '1' } });

const LEDGER = '.loop/ledgers/s.json';

/** A repository with a source file and an opened session, both committed. */
function trackedLedgerRepo() {
  const repo = tempRoot('loop-ledger-tracked-');
  git(repo, 'init', '-q', '-b', 'main');
  git(repo, 'config', 'user.email', 't@example.com');
  git(repo, 'config', 'user.name', 'T');
  git(repo, 'config', 'commit.gpgsign', 'false');
  mkdirSync(join(repo, 'src'));
  writeFileSync(join(repo, 'src', 'app.ts'), 'export const a = 1;\n');
  const contract = writeJson(join(repo, 'contract.json'), sampleContract());
  const cli = (...args: string[]) => runCli([...args, '--root', repo, '--session', 's']);
  assert.equal(cli('open', '--contract', contract).code, 0);
  git(repo, 'add', '-A');
  git(repo, 'commit', '-q', '-m', 'source, contract and ledger');
  const outside = tempRoot('loop-ledger-inputs-');
  const verification = writeText(join(outside, 'verify.txt'), 'all 12 tests passed\n');
  /** `brief` over `git diff HEAD` and its `--stat`, as a reviewer of the working tree runs it. */
  const brief = (...extra: string[]): CliResult => {
    const diff = writeText(join(outside, 'change.diff'), git(repo, 'diff', 'HEAD'));
    const stat = writeText(join(outside, 'change.stat'), git(repo, 'diff', '--stat', 'HEAD'));
    return cli(
      'brief',
      '--diff-file',
      diff,
      '--verification-file',
      verification,
      '--change-scope',
      stat,
      ...extra,
    );
  };
  return { repo, cli, brief, outside, verification };
}

describe('cli: brief leaves Loop Ledger’s own writes out', () => {
  it('a ledger rewritten by the last brief is not part of the next one: not in the diff, not a declared path', () => {
    const { repo, brief } = trackedLedgerRepo();
    writeFileSync(join(repo, 'src', 'app.ts'), 'export const a = 2;\n');
    const first = brief('--json');
    assert.equal(first.code, 0, first.stderr);
    assert.equal(first.json.asks.length, 6); // nothing of ours in the diff yet

    // The first brief armed itself in the tracked ledger: git now sees the ledger changed too.
    assert.match(git(repo, 'diff', '--stat', 'HEAD'), /\.loop\/ledgers\/s\.json/);
    const second = brief('--json');
    assert.equal(second.code, 0, second.stderr);
    assert.deepEqual(second.json.scope, {
      provenance: 'verified',
      declared_paths: ['src/app.ts'],
      diff_paths: ['src/app.ts'],
      undeclared_paths: [],
    });
    assert.doesNotMatch(second.json.diff, /\.loop\//);
    assert.match(second.json.diff, /^diff --git a\/src\/app\.ts b\/src\/app\.ts$/m);
    // the same change, the same verification: the same packet id as before the ledger changed
    assert.equal(second.json.brief_id, first.json.brief_id);
    assert.equal(second.json.asks.length, 7);
    assert.equal(
      second.json.asks[6],
      `Left out of the diff and the scope check as Loop Ledger's own writes (its ledgers and records, not part of the change): ${LEDGER}.`,
    );

    const human = brief();
    assert.equal(human.code, 0, human.stderr);
    assert.deepEqual(human.stdout.trim().split('\n'), [
      `s: brief ${first.json.brief_id} pending (scope verified, 1 file(s) in the diff)`,
      second.json.asks[6],
    ]);
  });

  it('a large diff (kept as bytes, read by the scanner) loses only its own-writes section', () => {
    const { repo, brief } = trackedLedgerRepo();
    const big = Array.from({ length: 12_000 }, (_, i) => `export const line${i} = ${i};`).join('\n');
    writeFileSync(join(repo, 'src', 'app.ts'), `${big}\n`);
    writeFileSync(join(repo, 'src', 'z.ts'), 'export const z = 1;\n');
    git(repo, 'add', 'src/z.ts');
    assert.equal(brief().code, 0);
    const r = brief('--json');
    assert.equal(r.code, 0, r.stderr);
    assert.ok(Buffer.byteLength(r.json.diff) > 300_000);
    assert.deepEqual(r.json.scope.diff_paths, ['src/app.ts', 'src/z.ts']);
    assert.deepEqual(r.json.scope.declared_paths, ['src/app.ts', 'src/z.ts']);
    assert.doesNotMatch(r.json.diff, /\.loop\//);
    assert.match(r.json.diff, /^diff --git a\/src\/z\.ts b\/src\/z\.ts$/m);
    assert.match(r.json.asks[6], /: \.loop\/ledgers\/s\.json\.$/);
  });

  it('a diff of nothing but our own writes is refused (exit 8), named, and arms nothing', () => {
    const { repo, brief } = trackedLedgerRepo();
    writeFileSync(join(repo, 'src', 'app.ts'), 'export const a = 2;\n');
    const first = brief('--json');
    git(repo, 'commit', '-q', '-m', 'the change', '--', 'src/app.ts');
    const r = brief();
    assert.equal(r.code, 8, r.stdout);
    assert.match(
      r.stderr,
      /^--diff-file \S+: the diff holds only Loop Ledger's own writes \(\.loop\/ledgers\/s\.json\) — with them left out there is no change for the critic to judge\n$/,
    );
    assert.deepEqual(readLedger(repo, 's').pending_brief, { brief_id: first.json.brief_id });
  });

  it('a change scope naming only our own writes is refused (exit 9), named', () => {
    const { repo, cli, outside, verification } = trackedLedgerRepo();
    writeFileSync(join(repo, 'src', 'app.ts'), 'export const a = 2;\n');
    const diff = writeText(join(outside, 'd.diff'), git(repo, 'diff', 'HEAD'));
    const stat = writeText(join(outside, 's.stat'), ` ${LEDGER} | 4 ++--\n 1 file changed\n`);
    const r = cli('brief', '--diff-file', diff, '--verification-file', verification, '--change-scope', stat);
    assert.equal(r.code, 9, r.stdout);
    assert.match(r.stderr, /names only Loop Ledger's own writes \(\.loop\/ledgers\/s\.json\)/);
  });

  it('a section that names any other path stays (a rename out of .loop/ is part of the change)', () => {
    const { repo, brief } = trackedLedgerRepo();
    mkdirSync(join(repo, '.loop', 'notes'), { recursive: true });
    writeFileSync(join(repo, '.loop', 'notes', 'plan.md'), 'a plan\nof several lines\nkept whole\n');
    git(repo, 'add', '-A');
    git(repo, 'commit', '-q', '-m', 'plan');
    git(repo, 'mv', '.loop/notes/plan.md', 'src/plan.md');
    writeFileSync(join(repo, 'src', 'plan.md'), 'a plan\nof several lines\nkept whole\nand one more\n');
    const r = brief('--json');
    assert.equal(r.code, 0, r.stderr);
    assert.deepEqual(r.json.scope.diff_paths, ['.loop/notes/plan.md', 'src/plan.md']);
    assert.deepEqual(r.json.scope.declared_paths, ['src/plan.md']);
    assert.match(r.json.diff, /^rename to src\/plan\.md$/m);
    assert.equal(r.json.asks.length, 6);
  });
});
