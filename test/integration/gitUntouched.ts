// The assertion every test that takes a checkpoint makes, for the real-VS-Code suites: the user's
// `git status --porcelain=v2`, index file bytes, refs/heads, refs/stash and HEAD are the same
// before and after (the unit tests' test/unit/checkpoints/repo.ts reads the same things).
import * as assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

const git = (root: string, args: string[]): string =>
  execFileSync('git', args, { cwd: root, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });

export interface Untouched {
  /**
   * Untracked paths under these folders (`dir/`) are left out of the status: files the step under
   * test writes on purpose, not anything a checkpoint did.
   */
  writtenBy?: string[];
  /**
   * Leave the status out entirely: a restore writes the working tree by design (HEAD, the index and
   * the refs must still be as they were).
   */
  workingTreeWritten?: boolean;
}

/** Everything of the user's git a checkpoint must leave as it was. */
export function gitState(root: string, options: Untouched = {}): Record<string, string> {
  const gitDir = git(root, ['rev-parse', '--absolute-git-dir']).trim();
  const common = git(root, ['rev-parse', '--path-format=absolute', '--git-common-dir']).trim();
  const index = join(gitDir, 'index');
  const packed = join(common, 'packed-refs');
  const status = git(root, [
    '--no-optional-locks',
    'status',
    '--porcelain=v2',
    '-z',
    '--branch',
    '--untracked-files=all',
  ])
    .split('\0')
    .filter((entry) => !(options.writtenBy ?? []).some((dir) => entry.startsWith(`? ${dir}`)))
    .join('\0');
  return {
    ...(options.workingTreeWritten ? {} : { status }),
    index: existsSync(index) ? createHash('sha256').update(readFileSync(index)).digest('hex') : 'none',
    refs: git(root, ['for-each-ref', '--format=%(objectname) %(refname)', 'refs/heads', 'refs/stash']),
    packed: existsSync(packed) ? readFileSync(packed, 'utf8') : '',
    head: readFileSync(join(gitDir, 'HEAD'), 'utf8'),
  };
}

/** Runs `step` (which takes a checkpoint) and asserts the user's git state did not change. */
export async function assertGitUntouched<T>(
  root: string,
  step: () => T | Promise<T>,
  options: Untouched = {},
): Promise<T> {
  const before = gitState(root, options);
  const result = await step();
  assert.deepEqual(gitState(root, options), before, "the user's git state changed");
  return result;
}
