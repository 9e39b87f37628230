// Run Loop asks whether a session has an unfinished run without blocking the
// extension host. The rule (newest run linked to the session, finished when it has a receipt, its
// request read back) is one generator in app/run/session.ts; the CLI drives it synchronously, the
// extension with promises. Both drivers must answer the same for every layout below.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { findUnfinishedRun, newestLinkedRun, RUN_LEDGER_FILE } from '../../../src/app/run/session';
import { findUnfinishedRunAsync } from '../../../src/app/run/session-async';
import { tempRoot } from '../helpers/cli';

const RUNS = '.loop/runs';
const request = { objective: 'o', allowed_globs: ['*'], checks: [], max_attempts: 3, check_timeout: 60 };

function run(root: string, id: string, files: Record<string, string>): void {
  const dir = join(root, RUNS, id);
  mkdirSync(dir, { recursive: true });
  for (const [name, text] of Object.entries(files)) writeFileSync(join(dir, name), text);
}

const link = (session: string) => JSON.stringify({ session, epoch: 1, run_id: 'x' });

describe('run lookup: findUnfinishedRunAsync agrees with findUnfinishedRun', () => {
  const root = tempRoot('loop-ledger-run-lookup-');

  before(() => {
    // a: newest run unfinished (no receipt) → resumable; an older finished one does not matter.
    run(root, '20260101-a-old', { [RUN_LEDGER_FILE]: link('a'), 'final-receipt.json': '{}' });
    run(root, '20260102-a-new', { [RUN_LEDGER_FILE]: link('a'), 'request.json': JSON.stringify(request) });
    // b: newest run finished → nothing to resume, though an older one is unfinished.
    run(root, '20260101-b-old', { [RUN_LEDGER_FILE]: link('b'), 'request.json': JSON.stringify(request) });
    run(root, '20260103-b-new', { [RUN_LEDGER_FILE]: link('b'), 'final-receipt.json': '{}' });
    // c: unfinished, but its request is not JSON → nothing to resume.
    run(root, '20260104-c', { [RUN_LEDGER_FILE]: link('c'), 'request.json': '{"objective": ' });
    // d: its link is unreadable (not JSON).
    run(root, '20260105-d', { [RUN_LEDGER_FILE]: '{', 'request.json': JSON.stringify(request) });
  });

  it('answers the same for each session, and resumes only the newest unfinished run', async () => {
    for (const session of ['a', 'b', 'c', 'd', 'nobody'])
      assert.deepEqual(
        await findUnfinishedRunAsync(root, RUNS, session),
        findUnfinishedRun(root, RUNS, session),
        session,
      );
    assert.equal((await findUnfinishedRunAsync(root, RUNS, 'a'))?.runId, '20260102-a-new');
    assert.deepEqual((await findUnfinishedRunAsync(root, RUNS, 'a'))?.request, request);
    assert.equal(await findUnfinishedRunAsync(root, RUNS, 'b'), null);
    assert.equal(newestLinkedRun(root, RUNS, 'b')?.finished, true);
    assert.equal(await findUnfinishedRunAsync(root, RUNS, 'c'), null);
  });

  it('passes over a run whose link is a FIFO or a link to a device, without waiting on it', async () => {
    // Both readers go through the store's (opened non-blocking, no symlink followed, regular
    // files only): a FIFO would block the CLI and the extension host, /dev/zero never ends.
    const fifoRoot = tempRoot('loop-ledger-run-lookup-fifo-');
    run(fifoRoot, '20260101-a', { [RUN_LEDGER_FILE]: link('a'), 'request.json': JSON.stringify(request) });
    run(fifoRoot, '20260102-e', { 'request.json': JSON.stringify(request) });
    execFileSync('mkfifo', [join(fifoRoot, RUNS, '20260102-e', RUN_LEDGER_FILE)]);
    assert.equal((await findUnfinishedRunAsync(fifoRoot, RUNS, 'a'))?.runId, '20260101-a');
    assert.equal(await findUnfinishedRunAsync(fifoRoot, RUNS, 'e'), null);
    assert.equal(findUnfinishedRun(fifoRoot, RUNS, 'a')?.runId, '20260101-a');
    assert.equal(findUnfinishedRun(fifoRoot, RUNS, 'e'), null);
    run(fifoRoot, '20260103-z', {});
    symlinkSync('/dev/zero', join(fifoRoot, RUNS, '20260103-z', RUN_LEDGER_FILE));
    symlinkSync('/dev/zero', join(fifoRoot, RUNS, '20260103-z', 'request.json'));
    assert.equal(findUnfinishedRun(fifoRoot, RUNS, 'z'), null);
    assert.equal(await findUnfinishedRunAsync(fifoRoot, RUNS, 'z'), null);
  });

  it('finds nothing, without failing, when the runs folder does not exist', async () => {
    const empty = tempRoot('loop-ledger-run-lookup-empty-');
    assert.equal(await findUnfinishedRunAsync(empty, RUNS, 'a'), null);
    assert.equal(findUnfinishedRun(empty, RUNS, 'a'), null);
  });
});
