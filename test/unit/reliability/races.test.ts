// Writers racing through the real CLI where the ledger's location is itself in play: a session
// still in the original engine's folder and two sessions whose ids share a prefix. Every writer
// that exits 0 must find its iteration in the ledger.
import assert from 'node:assert/strict';
import { mkdirSync, readFileSync, rmSync, unlinkSync, writeFileSync } from 'node:fs';
import { hostname } from 'node:os';
import { dirname, join } from 'node:path';
import {
  ledgerPath,
  readLedger,
  runCli,
  runCliAsync,
  sampleContract,
  tempRoot,
  writeJson,
  type CliResult,
} from '../helpers/cli';

const WRITERS = 8;
const ROUNDS = 3;
const EXIT_BUSY = 3;
const EXIT_ALREADY_DONE = 5;

/** A workspace whose session `s` exists only in the original engine's folder, without a version. */
function legacyOnlyWorkspace(): string {
  const root = tempRoot('loop-ledger-races-');
  const contract = writeJson(join(root, 'contract.json'), sampleContract({ iteration_limit: 100_000 }));
  const opened = runCli(['open', '--root', root, '--session', 's', '--contract', contract]);
  assert.equal(opened.code, 0, opened.stderr);
  const legacy = join(root, '.claude', '.runtime', 'work-loop', 's.json');
  mkdirSync(dirname(legacy), { recursive: true });
  const { schema_version: _, ...original } = readLedger(root, 's');
  writeFileSync(legacy, `${JSON.stringify(original, null, 2)}\n`);
  rmSync(join(root, '.loop'), { recursive: true });
  return root;
}

/** Takes `session`'s lock file as this (live) process would; returns the release. */
function holdLock(root: string, session: string): () => void {
  const lock = `${ledgerPath(root, session)}.lock`;
  mkdirSync(dirname(lock), { recursive: true });
  writeFileSync(
    lock,
    JSON.stringify({ pid: process.pid, hostname: hostname(), acquired_at: new Date().toISOString() }),
  );
  return () => unlinkSync(lock);
}

function iterate(root: string, session: string, action: string): Promise<CliResult> {
  return runCliAsync([
    'iterate',
    '--root',
    root,
    '--session',
    session,
    '--outcome',
    'continue',
    '--action',
    action,
  ]);
}

/** n runs 1..len, and the records' actions are exactly `acknowledged` (order aside). */
function assertExactly(root: string, session: string, acknowledged: string[], context: string): void {
  const ledger = readLedger(root, session);
  const records = ledger.iterations as { n: number; actions: string[] }[];
  assert.deepEqual(
    records.map((record) => record.n),
    records.map((_, index) => index + 1),
    `${context}: n has a gap or repeat`,
  );
  assert.deepEqual(
    records.flatMap((record) => record.actions).sort(),
    [...acknowledged].sort(),
    `${context}: the ledger's actions differ from the acknowledged ones`,
  );
}

describe('reliability: races over where the ledger is', function () {
  this.timeout(180_000);
  const roots: string[] = [];
  after(() => roots.forEach((root) => rmSync(root, { recursive: true, force: true })));

  it(`${WRITERS} writers x ${ROUNDS} rounds over a session only in the original folder lose no iteration`, async () => {
    const root = legacyOnlyWorkspace();
    roots.push(root);
    const legacyBytes = readFileSync(join(root, '.claude', '.runtime', 'work-loop', 's.json'));
    const acknowledged: string[] = [];
    for (let round = 1; round <= ROUNDS; round += 1) {
      const actions = Array.from({ length: WRITERS }, (_, w) => `r${round}-w${w}`);
      // Round 1: hold the lock while the writers start, so that every one of them has decided
      // where the ledger is (the original folder: no .loop ledger yet) before any can write.
      const release = round === 1 ? holdLock(root, 's') : () => {};
      const running = actions.map((action) => iterate(root, 's', action));
      if (round === 1) setTimeout(release, 1200);
      const results = await Promise.all(running);
      results.forEach((result, w) => {
        assert.ok(
          result.code === 0 || result.code === EXIT_BUSY,
          `round ${round} writer ${w}: exit ${result.code}: ${result.stderr}`,
        );
        if (result.code === 0) acknowledged.push(actions[w] as string);
      });
      assertExactly(root, 's', acknowledged, `after round ${round}`);
    }
    assert.ok(acknowledged.length >= ROUNDS, `only ${acknowledged.length} writers got through`);
    // The original engine's file is never modified.
    assert.deepEqual(readFileSync(join(root, '.claude', '.runtime', 'work-loop', 's.json')), legacyBytes);
  });

  it(`the same action from ${WRITERS} writers over a session only in the original folder is recorded once`, async () => {
    const root = legacyOnlyWorkspace();
    roots.push(root);
    const results = await Promise.all(Array.from({ length: WRITERS }, () => iterate(root, 's', 'same')));
    const codes = results.map((result) => result.code);
    assert.equal(codes.filter((code) => code === 0).length, 1, `exit codes: ${codes.join(', ')}`);
    for (const code of codes)
      assert.ok(code === 0 || code === EXIT_ALREADY_DONE || code === EXIT_BUSY, `${code}`);
    assertExactly(root, 's', ['same'], 'same action');
  });

  it('writers of two sessions whose ids share a prefix ("a" and "a.json.999999") never lose a write', async () => {
    const root = tempRoot('loop-ledger-races-');
    roots.push(root);
    const contract = writeJson(join(root, 'contract.json'), sampleContract({ iteration_limit: 100_000 }));
    const sessions = ['a', 'a.json.999999'];
    for (const session of sessions) {
      assert.equal(runCli(['open', '--root', root, '--session', session, '--contract', contract]).code, 0);
    }
    const acknowledged = new Map<string, string[]>(sessions.map((session) => [session, []]));
    for (let round = 1; round <= 6; round += 1) {
      const jobs = sessions.flatMap((session) => [1, 2].map((w) => ({ session, action: `r${round}-w${w}` })));
      const results = await Promise.all(jobs.map((job) => iterate(root, job.session, job.action)));
      results.forEach((result, i) => {
        const job = jobs[i] as { session: string; action: string };
        assert.ok(
          result.code === 0 || result.code === EXIT_BUSY,
          `${job.session} ${job.action}: exit ${result.code}: ${result.stderr}`,
        );
        if (result.code === 0) acknowledged.get(job.session)?.push(job.action);
      });
    }
    for (const session of sessions) assertExactly(root, session, acknowledged.get(session) ?? [], session);
  });
});
