// Work-order sidecars and HALT markers are written only inside their task folder: a
// `work-orders` folder that is a symbolic link leading elsewhere (a cloned task can carry one)
// is refused, one line, exit 2, and nothing lands where the link leads. Through the CLI.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { cpSync, mkdirSync, readdirSync, renameSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { CLI, childEnv, cliResultOf, tempRoot, type CliResult } from '../helpers/cli';
import { makeTask } from './fixture';

function wo(args: string[]): CliResult {
  const r = spawnSync(process.execPath, [CLI, 'wo', ...args], {
    env: childEnv(),
    encoding: 'utf8',
    timeout: 20_000,
    killSignal: 'SIGKILL',
  });
  assert.equal(r.error, undefined, `the command hung or failed to start: ${String(r.error)}`);
  return cliResultOf(r);
}

describe('wo: sidecar writes stay in the task folder', () => {
  it('wo halt through a work-orders folder that links outside the task: exit 2, one line, no HALT or run.json outside', () => {
    const t = makeTask([{ n: 1 }]);
    const elsewhere = join(tempRoot('wo-elsewhere-'), 'orders');
    mkdirSync(elsewhere);
    cpSync(t.dir, elsewhere, { recursive: true });
    const before = readdirSync(elsewhere).sort();
    // The real folder moves aside; the task's work-orders becomes a link to the copy elsewhere.
    renameSync(t.dir, `${t.dir}.real`);
    symlinkSync(elsewhere, t.dir);

    const refused = wo(['halt', t.dir, 'wo-01', '--reason', 'manual']);
    assert.equal(refused.code, 2, refused.stderr);
    const lines = refused.stderr.trim().split('\n');
    assert.equal(lines.length, 1, refused.stderr);
    assert.match(lines[0] ?? '', /wo-01\.HALT: its folder leads to .*outside the real path/);
    assert.doesNotMatch(refused.stderr, /\n\s+at /, 'no stack trace');
    assert.deepEqual(readdirSync(elsewhere).sort(), before, 'nothing written outside the task');

    // The same command on the real folder writes the marker (the refusal is the link's doing).
    const ok = wo(['halt', `${t.dir}.real`, 'wo-01', '--reason', 'manual']);
    assert.equal(ok.code, 0, ok.stderr);
    assert.ok(readdirSync(`${t.dir}.real`).includes('wo-01.HALT'));
  });
});
