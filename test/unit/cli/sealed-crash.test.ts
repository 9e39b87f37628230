// A sealed append killed at the worst moment, through the real CLI: the new file is written and
// fsynced under its temporary name, and the process dies (SIGKILL) just before the rename. The
// ledger must be the old file byte for byte; the next iterate must get past the dead writer's lock
// and temporary file, append, and leave a ledger that is sealed and reads the same in full.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { summarizeRecords } from '../../../src/engine/records-summary';
import { readLedgerFile } from '../../../src/store/ledger-file';
import { readSealedLedger } from '../../../src/store/ledger-sealed';
import { CLI, childEnv, ledgerPath, runCli, tempRoot } from '../helpers/cli';
import { assertNoStack, loopWith } from './setup';

/** A preload that kills the process the moment it would rename a temporary file onto a ledger. */
function dieOnRename(): string {
  const path = join(tempRoot('loop-ledger-die-'), 'die.cjs');
  writeFileSync(
    path,
    `const fs = require('fs');
const real = fs.renameSync;
fs.renameSync = function (from, to) {
  if (String(from).endsWith('.tmp') && String(to).endsWith('.json')) process.kill(process.pid, 'SIGKILL');
  return real.apply(this, arguments);
};
`,
  );
  return path;
}

describe('cli: a sealed append killed between its write and its rename', function () {
  this.timeout(60_000);

  it('leaves the old ledger; the next iterate recovers the lock, sweeps the temp file and appends', () => {
    const loop = loopWith({ iteration_limit: 100 });
    for (let i = 0; i < 3; i += 1)
      assert.equal(loop.cli('iterate', '--outcome', 'continue', '--note', 'x'.repeat(100_000)).code, 0);
    const path = ledgerPath(loop.root, loop.session);
    assert.ok(readSealedLedger(path, loop.session), 'sealed before the crash');
    const before = readFileSync(path);

    const killed = spawnSync(
      process.execPath,
      [
        '-r',
        dieOnRename(),
        CLI,
        'iterate',
        '--root',
        loop.root,
        '--session',
        loop.session,
        '--outcome',
        'continue',
      ],
      { env: childEnv(), encoding: 'utf8' },
    );
    assert.equal(killed.signal, 'SIGKILL', killed.stderr);
    assert.ok(readFileSync(path).equals(before), 'the ledger is the old file, byte for byte');
    const left = readdirSync(join(loop.root, '.loop', 'ledgers'));
    assert.ok(
      left.some((name) => name.endsWith('.tmp')),
      `the dead writer's temp file is there: ${left.join(', ')}`,
    );

    const next = runCli([
      'iterate',
      '--root',
      loop.root,
      '--session',
      loop.session,
      '--outcome',
      'continue',
      '--json',
    ]);
    assert.equal(next.code, 0, next.stderr);
    assertNoStack(next.stderr);
    assert.equal(next.json.n, 4);
    assert.deepEqual(readdirSync(join(loop.root, '.loop', 'ledgers')), [`${loop.session}.json`]);
    const full = readLedgerFile(path);
    if (full.kind !== 'ok') throw new Error(JSON.stringify(full));
    const sealed = readSealedLedger(path, loop.session);
    assert.ok(sealed, 'still sealed');
    assert.equal(JSON.stringify(sealed.summary), JSON.stringify(summarizeRecords(full.ledger.iterations)));
  });
});
