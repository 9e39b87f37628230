// Fixtures for the checkpoint tests: a real git repository in a temp folder with an opened
// session, and the one assertion every test that takes a checkpoint makes: the user's git state
// (status, index bytes, branches, stash, HEAD) is the same before and after.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { readLedger, runCli, sampleContract, tempRoot, writeJson, type CliResult } from '../helpers/cli';

export function sh(cwd: string, args: string[], input?: string): string {
  return execFileSync(
    'git',
    ['-c', 'user.name=T', '-c', 'user.email=t@t', '-c', 'commit.gpgSign=false', ...args],
    {
      cwd,
      input,
      encoding: 'utf8',
      env: { ...process.env, GIT_CONFIG_NOSYSTEM: '1' },
      stdio: ['pipe', 'pipe', 'pipe'],
    },
  );
}

export interface Repo {
  root: string;
  session: string;
  cli(sub: string, ...args: string[]): CliResult;
  write(path: string, text: string): void;
}

/** A repository with one commit (`a.txt`), `.loop/` ignored, and session `s1` opened. */
export function makeRepo(options: { git?: boolean; ignoreLoop?: boolean } = {}): Repo {
  const root = tempRoot('loop-ledger-cp-');
  if (options.git !== false) {
    sh(root, ['init', '-q', '-b', 'main']);
    writeFileSync(join(root, 'a.txt'), 'one\n');
    writeFileSync(
      join(root, '.gitignore'),
      options.ignoreLoop === false ? 'ignored.log\n' : '.loop/\nignored.log\n',
    );
    sh(root, ['add', 'a.txt', '.gitignore']);
    sh(root, ['commit', '-qm', 'init']);
  } else {
    writeFileSync(join(root, 'a.txt'), 'one\n');
  }
  const session = 's1';
  const contract = writeJson(
    join(tempRoot('loop-ledger-cp-contract-'), 'contract.json'),
    sampleContract({ iteration_limit: 50 }),
  );
  const cli = (sub: string, ...args: string[]) =>
    runCli([sub, '--root', root, '--session', session, ...args]);
  const opened = cli('open', '--contract', contract);
  if (opened.code !== 0) throw new Error(`open failed: ${opened.stderr}`);
  return { root, session, cli, write: (path, text) => writeFileSync(join(root, path), text) };
}

/** Everything of the user's git a checkpoint must leave as it was. */
export function gitState(root: string): string {
  const gitDir = sh(root, ['rev-parse', '--absolute-git-dir']).trim();
  const common = sh(root, ['rev-parse', '--path-format=absolute', '--git-common-dir']).trim();
  const index = join(gitDir, 'index');
  const indexHash = existsSync(index)
    ? createHash('sha256').update(readFileSync(index)).digest('hex')
    : 'none';
  const packed = join(common, 'packed-refs');
  return JSON.stringify({
    status: sh(root, [
      '--no-optional-locks',
      'status',
      '--porcelain=v2',
      '-z',
      '--branch',
      '--untracked-files=all',
    ]),
    index: indexHash,
    refs: sh(root, [
      'for-each-ref',
      '--format=%(objectname) %(refname)',
      'refs/heads',
      'refs/stash',
      'refs/tags',
    ]),
    packed: existsSync(packed) ? readFileSync(packed, 'utf8') : '',
    head: readFileSync(join(gitDir, 'HEAD'), 'utf8'),
  });
}

/** Runs `fn` and asserts the user's git state did not change. */
export function assertGitUntouched<T>(root: string, fn: () => T): T {
  const before = gitState(root);
  const result = fn();
  assert.equal(gitState(root), before, 'the user git state changed');
  return result;
}

/** `iterate --checkpoint` asserted to leave the user's git untouched; returns the CLI result. */
export function checkpoint(repo: Repo, ...args: string[]): CliResult {
  return assertGitUntouched(repo.root, () =>
    repo.cli('iterate', '--outcome', 'continue', '--checkpoint', '--json', ...args),
  );
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Row = Record<string, any>;

export function ledgerRecords(repo: Repo): Row[] {
  return (readLedger(repo.root, repo.session) as { iterations: Row[] }).iterations;
}
