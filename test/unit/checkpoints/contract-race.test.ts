// Two iterates racing on a loop whose contract says `checkpoint: true`: the checkpoint is taken
// before the ledger's lock, so one iterate stuck reading a slow tree does not hold the other.
// A `git` wrapper first on PATH parks the first iterate inside its `ls-files` (the tree walk)
// until the test releases it; the second iterate must land meanwhile (with the lock held there,
// it would wait its 2 s and be refused as busy). Both records then carry live checkpoints.
import assert from 'node:assert/strict';
import { execFileSync, spawn } from 'node:child_process';
import { chmodSync, existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  CLI,
  childEnv,
  cliResultOf,
  ledgerPath,
  runCli,
  sampleContract,
  tempRoot,
  writeJson,
  type CliResult,
} from '../helpers/cli';
import { gitState, ledgerRecords, makeRepo, sh } from './repo';

/** A folder with a `git` that waits for `$HOLD_RELEASE` before any `ls-files` when `$HOLD_MARK` is set. */
function holdingGit(): string {
  const real = execFileSync('sh', ['-c', 'command -v git'], { encoding: 'utf8' }).trim();
  const bin = tempRoot('loop-ledger-holdgit-');
  const path = join(bin, 'git');
  writeFileSync(
    path,
    `#!/bin/sh
if [ -n "$HOLD_MARK" ]; then
  for a in "$@"; do
    if [ "$a" = "ls-files" ]; then
      : > "$HOLD_MARK"
      while [ ! -e "$HOLD_RELEASE" ]; do sleep 0.05; done
    fi
  done
fi
exec ${JSON.stringify(real)} "$@"
`,
  );
  chmodSync(path, 0o755);
  return bin;
}

function cliChild(args: string[], env: Record<string, string>): Promise<CliResult> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [CLI, ...args], { env: childEnv(env) });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    child.on('close', (status) => resolve(cliResultOf({ status, stdout, stderr })));
  });
}

async function until(what: string, done: () => boolean): Promise<void> {
  for (let i = 0; i < 1200; i++) {
    if (done()) return;
    await new Promise((r) => setTimeout(r, 25));
  }
  throw new Error(`gave up waiting for ${what}`);
}

describe('checkpoints: two iterates racing on a checkpoint: true contract', function () {
  this.timeout(120_000);

  it('the one reading a slow tree does not hold the other; both land with live checkpoints', async () => {
    const repo = makeRepo();
    const contract = writeJson(
      join(tempRoot('loop-ledger-cp-contract-'), 'contract.json'),
      sampleContract({ iteration_limit: 50, checkpoint: true }),
    );
    assert.equal(runCli(['open', '--root', repo.root, '--session', 'c1', '--contract', contract]).code, 0);
    const bin = holdingGit();
    const marks = tempRoot('loop-ledger-hold-');
    const mark = join(marks, 'held');
    const release = join(marks, 'release');
    const iterate = ['iterate', '--root', repo.root, '--session', 'c1', '--outcome', 'continue', '--json'];
    const path = `${bin}:${process.env.PATH ?? ''}`;

    repo.write('a.txt', 'slow writer\n');
    const before = gitState(repo.root);
    const slow = cliChild(iterate, { PATH: path, HOLD_MARK: mark, HOLD_RELEASE: release });
    let fast: CliResult;
    try {
      await until('the first iterate to reach ls-files', () => existsSync(mark));
      fast = await cliChild(iterate, { PATH: path });
    } finally {
      writeFileSync(release, '');
    }
    const late = await slow;

    assert.equal(fast.code, 0, `the second iterate was held by the first: ${fast.stderr}`);
    assert.equal(late.code, 0, late.stderr);
    assert.equal(fast.json.n, 1);
    assert.equal(late.json.n, 2);
    const records = ledgerRecords({ ...repo, session: 'c1' });
    assert.deepEqual(
      records.map((r) => r.checkpoint?.ref),
      ['refs/loop-ledger/c1/1-1', 'refs/loop-ledger/c1/1-2'],
    );
    for (const r of records) {
      assert.equal(sh(repo.root, ['rev-parse', r.checkpoint.ref]).trim(), r.checkpoint.commit);
      assert.equal(sh(repo.root, ['show', `${r.checkpoint.commit}:a.txt`]), 'slow writer\n');
    }
    assert.equal(gitState(repo.root), before, 'the user git state changed');
  });

  it('a contract that stops asking while the checkpoint is taken: no ref, no key (as before)', async () => {
    const repo = makeRepo();
    const contract = writeJson(
      join(tempRoot('loop-ledger-cp-contract-'), 'contract.json'),
      sampleContract({ iteration_limit: 50, checkpoint: true }),
    );
    assert.equal(runCli(['open', '--root', repo.root, '--session', 'c1', '--contract', contract]).code, 0);
    const bin = holdingGit();
    const marks = tempRoot('loop-ledger-hold-');
    const mark = join(marks, 'held');
    const release = join(marks, 'release');
    const slow = cliChild(
      ['iterate', '--root', repo.root, '--session', 'c1', '--outcome', 'continue', '--json'],
      { PATH: `${bin}:${process.env.PATH ?? ''}`, HOLD_MARK: mark, HOLD_RELEASE: release },
    );
    try {
      await until('the iterate to reach ls-files', () => existsSync(mark));
      // The contract re-read under the lock no longer asks (a ledger edited by hand meanwhile).
      const file = ledgerPath(repo.root, 'c1');
      const ledger = JSON.parse(readFileSync(file, 'utf8'));
      delete ledger.contract.checkpoint;
      writeFileSync(file, JSON.stringify(ledger, null, 2));
    } finally {
      writeFileSync(release, '');
    }
    const r = await slow;
    assert.equal(r.code, 0, r.stderr);
    assert.equal(r.json.checkpoint, undefined);
    assert.equal(r.json.checkpoint_skipped, undefined);
    assert.equal(sh(repo.root, ['for-each-ref', 'refs/loop-ledger/']), '');
  });
});
