// Scope escapes the working tree does not show, through the CLI as a child process with fake
// agents: a coder that commits an out-of-scope file, hides one with `.git/info/exclude` or flags a
// tracked one skip-worktree; a read-only reviewer that installs a git hook. Each is a scope
// violation in the receipt (DISALLOWED_FILE_CHANGE, named in the findings), never a PASS.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { runSample, sampleRepo } from './helpers';

function git(repo: string, ...args: string[]): void {
  const r = spawnSync('git', args, { cwd: repo, encoding: 'utf8' });
  if (r.status !== 0) throw new Error(r.stderr);
}

function violation(mode: string, finding: RegExp, changed: string, setup?: (repo: string) => void): void {
  const repo = sampleRepo();
  setup?.(repo);
  const r = runSample(repo, mode);
  assert.equal(r.code, 1, r.stderr);
  assert.equal(r.json.final_verdict, 'BLOCKED');
  assert.equal(r.json.stop_reason, 'DISALLOWED_FILE_CHANGE');
  assert.ok(
    r.json.reviewer.findings.some((f: string) => finding.test(f)),
    JSON.stringify(r.json.reviewer.findings),
  );
  assert.ok(r.json.changed_files.includes(changed), JSON.stringify(r.json.changed_files));
}

describe('run: scope escapes out of the working tree’s sight', function () {
  this.timeout(60_000);

  it('a coder that commits an out-of-scope file', () =>
    violation('coder-commits-outside', /^disallowed file: outside\.txt$/, 'outside.txt'));

  it('a coder that hides a new file with .git/info/exclude', () =>
    violation('coder-exclude-hides', /^scope violation: \.git\/info changed by coder$/, '.git/info'));

  it('a coder that flags a tracked file skip-worktree and edits it', () =>
    violation(
      'coder-skip-worktree',
      /^scope violation: tracked-outside\.txt hidden from git status .* by coder$/,
      'tracked-outside.txt',
      (repo) => {
        writeFileSync(join(repo, 'tracked-outside.txt'), 'base\n');
        git(repo, 'add', 'tracked-outside.txt');
        git(repo, 'commit', '-qm', 'tracked');
      },
    ));

  it('a read-only reviewer that installs .git/hooks/post-commit', () =>
    violation(
      'reviewer-installs-hook',
      /^scope violation: \.git\/hooks changed by code-reviewer$/,
      '.git/hooks',
    ));

  it('an in-scope run is untouched by the guard: PASS', () => {
    const r = runSample(sampleRepo(), 'pass');
    assert.equal(r.code, 0, r.stderr);
    assert.equal(r.json.final_verdict, 'PASS');
  });
});
