// Durability and concurrency through the real CLI: SIGKILL at random instants never loses or
// duplicates an acknowledged iteration, and concurrent writers serialise on the ledger's lock.
//
// Reproduce a crash run with LOOP_LEDGER_CRASH_SEED=<seed printed by the run>.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { dirname, join } from 'node:path';
import {
  CLI,
  childEnv,
  ledgerPath,
  readLedger,
  runCli,
  runCliAsync,
  sampleContract,
  tempRoot,
  writeJson,
  type CliResult,
} from '../helpers/cli';

const EXIT_BUSY = 3;
const EXIT_ALREADY_DONE = 5;
const KILLS = 50;

/** mulberry32: small, fast and good enough to make kill timings reproducible from one seed. */
function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function chooseSeed(): number {
  const given = process.env.LOOP_LEDGER_CRASH_SEED;
  if (given !== undefined && given !== '') {
    const seed = Number(given);
    assert.ok(Number.isSafeInteger(seed), `LOOP_LEDGER_CRASH_SEED must be an integer, got ${given}`);
    return seed;
  }
  return Math.floor(Math.random() * 2 ** 31);
}

/** A workspace with an open session whose contract never ends the loop on its own. */
const roots: string[] = [];

function openSession(session: string): string {
  const root = tempRoot('loop-ledger-crash-');
  roots.push(root);
  const contract = writeJson(join(root, 'contract.json'), sampleContract({ iteration_limit: 100_000 }));
  const opened = runCli(['open', '--root', root, '--session', session, '--contract', contract]);
  assert.equal(opened.code, 0, `open failed: ${opened.stderr}`);
  return root;
}

interface Ended {
  pid: number | undefined;
  code: number | null;
  signal: NodeJS.Signals | null;
  stderr: string;
  ms: number;
}

/** Runs one iterate; when `killAfterMs` is given, sends SIGKILL that long after the spawn. */
function iterateChild(root: string, session: string, args: string[], killAfterMs?: number): Promise<Ended> {
  return new Promise((resolve, reject) => {
    const started = process.hrtime.bigint();
    const child = spawn(
      process.execPath,
      [CLI, 'iterate', '--root', root, '--session', session, '--outcome', 'continue', ...args],
      { env: childEnv(), stdio: ['ignore', 'ignore', 'pipe'] },
    );
    let stderr = '';
    child.stderr.on('data', (d) => (stderr += d));
    const timer =
      killAfterMs === undefined ? undefined : setTimeout(() => child.kill('SIGKILL'), killAfterMs);
    child.on('error', reject);
    child.on('close', (code, signal) => {
      if (timer) clearTimeout(timer);
      resolve({ pid: child.pid, code, signal, stderr, ms: Number(process.hrtime.bigint() - started) / 1e6 });
    });
  });
}

/**
 * The ledger's invariants: it parses, `n` runs 1..len without a gap or repeat, no action is
 * recorded twice, completed_actions matches the records' actions exactly, and every action
 * whose command was acknowledged (exit 0) is there. Returns the recorded action ids.
 */
function checkLedger(
  root: string,
  session: string,
  acknowledged: Iterable<string>,
  context: string,
): Set<string> {
  const text = readFileSync(ledgerPath(root, session), 'utf8');
  let ledger;
  try {
    ledger = JSON.parse(text);
  } catch (error) {
    assert.fail(`${context}: the ledger does not parse (${(error as Error).message}); ${text.length} chars`);
  }
  const records = ledger.iterations as { n: number; actions: string[] }[];
  records.forEach((record, index) =>
    assert.equal(record.n, index + 1, `${context}: record ${index} has n ${record.n}`),
  );
  const fromRecords = records.flatMap((record) => record.actions);
  const recorded = new Set(fromRecords);
  assert.equal(recorded.size, fromRecords.length, `${context}: an action appears in two records`);
  const completed = ledger.completed_actions as string[];
  assert.equal(new Set(completed).size, completed.length, `${context}: completed_actions repeats an id`);
  assert.deepEqual(completed, fromRecords, `${context}: completed_actions disagrees with the records`);
  for (const action of acknowledged) {
    assert.ok(recorded.has(action), `${context}: acknowledged action ${action} is missing`);
  }
  return recorded;
}

function strayFiles(root: string, session: string): { temps: string[]; locks: string[]; others: string[] } {
  const dir = dirname(ledgerPath(root, session));
  const names = readdirSync(dir).filter((name) => name !== `${session}.json`);
  return {
    temps: names.filter((name) => name.endsWith('.tmp')),
    locks: names.filter((name) => name.includes('.lock')),
    others: names.filter((name) => !name.endsWith('.tmp') && !name.includes('.lock')),
  };
}

/** The pid in the session's lock file: null without a lock, NaN for one not written yet. */
function lockHolder(root: string, session: string): number | null {
  try {
    return Number(JSON.parse(readFileSync(`${ledgerPath(root, session)}.lock`, 'utf8')).pid);
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'ENOENT' ? null : NaN;
  }
}

describe('reliability: crashes and concurrent writers', function () {
  this.timeout(180_000);
  after(() => roots.forEach((root) => rmSync(root, { recursive: true, force: true })));

  it(`keeps every acknowledged iteration when the writer is SIGKILLed ${KILLS} times`, async () => {
    const seed = chooseSeed();
    console.log(`      crash seed ${seed} (rerun with LOOP_LEDGER_CRASH_SEED=${seed})`);
    const random = prng(seed);
    const session = 'crash';
    const root = openSession(session);
    // A fat note per record makes the ledger grow to a few MB, so the read-modify-write inside
    // the lock (parse, serialise, write, fsync, rename) lasts long enough for kills to land in it.
    const note = ['--note', 'n'.repeat(16 * 1024)];
    const acknowledged = new Set<string>();
    let next = 0;

    // Calibrate the kill window on this machine: a few uncontested runs, spread over their length.
    const lifetimes: number[] = [];
    for (let i = 0; i < 3; i += 1) {
      const action = `a${next++}`;
      const ended = await iterateChild(root, session, ['--action', action, ...note]);
      assert.equal(ended.code, 0, ended.stderr);
      acknowledged.add(action);
      lifetimes.push(ended.ms);
    }
    const typical = lifetimes.sort((x, y) => x - y)[1] as number;
    const windowMs = Math.max(60, Math.ceil(typical * 1.2));

    const seen = {
      kills: 0,
      completedBeforeKill: 0,
      busyRetries: 0,
      lockLeft: 0,
      tempLeft: 0,
      landedAfterWrite: 0,
    };
    let maxTemps = 0;
    for (let attempt = 0; seen.kills < KILLS; attempt += 1) {
      assert.ok(attempt < KILLS * 20, `only ${seen.kills} kills landed in ${attempt} attempts`);
      const action = `a${next++}`;
      const delay = random() * windowMs;
      const ended = await iterateChild(root, session, ['--action', action, ...note], delay);
      const context = `seed ${seed}, attempt ${attempt} (${action}, kill at ${delay.toFixed(1)} ms)`;
      if (ended.signal === 'SIGKILL') {
        seen.kills += 1;
        // What the dead writer left shows where the kill landed: a lock (inside the critical
        // section), a temporary file of its own pid (inside the atomic write).
        const stray = strayFiles(root, session);
        if (lockHolder(root, session) === ended.pid) seen.lockLeft += 1;
        if (stray.temps.some((name) => name.includes(`.${ended.pid}.`))) seen.tempLeft += 1;
        maxTemps = Math.max(maxTemps, stray.temps.length);
        const recorded = checkLedger(root, session, acknowledged, context);
        if (recorded.has(action)) seen.landedAfterWrite += 1;
        continue;
      }
      if (ended.code === EXIT_BUSY) {
        // A stale lock whose writer was killed before it wrote its pid is only broken after a
        // grace period; the retry is the agent's job, as it is here.
        seen.busyRetries += 1;
        continue;
      }
      assert.equal(ended.code, 0, `${context}: iterate exited ${ended.code}: ${ended.stderr}`);
      acknowledged.add(action);
      seen.completedBeforeKill += 1;
      checkLedger(root, session, acknowledged, context);
    }

    // The next writer after the last kill cleans up after it, and the ledger still works.
    const last = await iterateChild(root, session, ['--action', `a${next++}`]);
    assert.equal(last.code, 0, last.stderr);
    acknowledged.add(`a${next - 1}`);
    const recorded = checkLedger(root, session, acknowledged, `seed ${seed}, final`);
    const stray = strayFiles(root, session);
    console.log(
      `      window 0–${windowMs} ms (typical run ${typical.toFixed(0)} ms); ${seen.kills} kills: ` +
        `${seen.lockLeft} left a lock, ${seen.tempLeft} left a temp file, ${seen.landedAfterWrite} after the rename; ` +
        `${seen.completedBeforeKill} runs finished first, ${seen.busyRetries} busy retries; ` +
        `${recorded.size} records (${acknowledged.size} acknowledged); at most ${maxTemps} temp file(s) after a kill; ` +
        `left at the end: ${JSON.stringify(stray)}`,
    );
    assert.deepEqual(stray.locks, [], 'a lock file outlived the last successful write');
    assert.ok(stray.temps.length <= 3, `temporary files accumulate: ${stray.temps.join(', ')}`);
    assert.ok(maxTemps <= 3, `temporary files accumulated up to ${maxTemps} during the run`);
    assert.deepEqual(stray.others, []);
    const status = runCli(['status', '--root', root, '--session', session, '--json']);
    assert.equal(status.code, 0, status.stderr);
    assert.equal(status.json.iterations, recorded.size);
  });

  /** Runs an iterate until it is not busy; returns the final result and how many busy retries it took. */
  async function iterateUntilNotBusy(
    root: string,
    session: string,
    action: string,
  ): Promise<[CliResult, number]> {
    for (let retries = 0; ; retries += 1) {
      const result = await runCliAsync([
        'iterate',
        '--root',
        root,
        '--session',
        session,
        '--outcome',
        'continue',
        '--action',
        action,
        '--json',
      ]);
      if (result.code !== EXIT_BUSY) return [result, retries];
      assert.match(result.stderr, /busy/, `exit 3 that is not "busy": ${result.stderr}`);
      assert.ok(retries < 50, `still busy after 50 retries: ${result.stderr}`);
    }
  }

  it('serialises 8 processes × 25 iterations into exactly 200 records, n 1..200', async () => {
    const session = 'many';
    const root = openSession(session);
    const workers = 8;
    const perWorker = 25;
    let busyRetries = 0;
    const acknowledged: string[] = [];
    await Promise.all(
      Array.from({ length: workers }, async (_, w) => {
        for (let i = 0; i < perWorker; i += 1) {
          const action = `w${w}-i${i}`;
          const [result, retries] = await iterateUntilNotBusy(root, session, action);
          busyRetries += retries;
          assert.equal(result.code, 0, `${action}: exit ${result.code}: ${result.stderr}`);
          assert.deepEqual(result.json.actions, [action]);
          acknowledged.push(action);
        }
      }),
    );
    console.log(`      ${workers}×${perWorker} iterations, ${busyRetries} busy retries`);
    const ledger = readLedger(root, session);
    assert.equal(ledger.iterations.length, workers * perWorker);
    assert.deepEqual(
      ledger.iterations.map((record: { n: number }) => record.n),
      Array.from({ length: workers * perWorker }, (_, i) => i + 1),
    );
    const recorded = checkLedger(root, session, acknowledged, 'concurrent writers');
    assert.equal(recorded.size, workers * perWorker);
    assert.deepEqual([...ledger.completed_actions].sort(), [...acknowledged].sort());
    // Each worker's own iterations are in the order it made them.
    for (let w = 0; w < workers; w += 1) {
      const mine = ledger.completed_actions.filter((a: string) => a.startsWith(`w${w}-`));
      assert.deepEqual(
        mine,
        Array.from({ length: perWorker }, (_, i) => `w${w}-i${i}`),
      );
    }
    const stray = strayFiles(root, session);
    assert.deepEqual([...stray.temps, ...stray.locks, ...stray.others], []);
  });

  it('lets exactly one of 8 processes record the same action; the others exit 5', async () => {
    const session = 'race';
    const root = openSession(session);
    const results = await Promise.all(
      Array.from({ length: 8 }, () => iterateUntilNotBusy(root, session, 'the-one')),
    );
    const codes = results.map(([result]) => result.code).sort();
    assert.deepEqual(codes, [0, 5, 5, 5, 5, 5, 5, 5], results.map(([r]) => r.stderr).join(''));
    for (const [result] of results.filter(([r]) => r.code === EXIT_ALREADY_DONE)) {
      assert.equal(result.stdout, '');
      assert.match(result.stderr, /the-one/);
      assert.equal(result.stderr.trimEnd().split('\n').length, 1);
    }
    const ledger = readLedger(root, session);
    assert.equal(ledger.iterations.length, 1);
    assert.deepEqual(ledger.completed_actions, ['the-one']);
    assert.ok(!existsSync(`${ledgerPath(root, session)}.lock`));
  });
});
