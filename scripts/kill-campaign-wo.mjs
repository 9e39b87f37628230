#!/usr/bin/env node
// Kill campaign for `loop-ledger wo run` under its default builder (a `loop-ledger run` harness per
// attempt, with the fake agents of test/fixtures/wo): each trial starts a queue of three work
// orders, SIGKILLs the `wo run` process (only it, as a crash or `kill -9` would: its harness is
// orphaned) at a random moment, then runs `wo run` again until it ends. It counts what a crash
// must never cause: halted work orders, and lost records (a done work order without its ledger
// closed `complete`, an unreadable ledger, a bad obs line).
//
//   node scripts/kill-campaign-wo.mjs [--trials 12] [--seed 1] [--cli dist/cli.js] [--window 0.05,0.95]
//
// --window: the kill moments are drawn from this fraction range of an undisturbed run's time.
//
// Re-runnable: the kill moments come from the seed; the same seed gives the same moments (the
// machine's speed still decides what each moment hits). Prints one line per trial and a summary.
import { spawnSync } from 'node:child_process';
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  readdirSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { campaignArgs, campaignEnv, readJson, sleep, startCli, wholeNumber } from '../bench/kill-kit.mjs';

const here = dirname(fileURLToPath(import.meta.url));
const {
  values,
  cli: CLI,
  random,
} = campaignArgs({
  trials: { type: 'string', default: '12' },
  window: { type: 'string', default: '0.05,0.95' },
});
const TRIALS = wholeNumber(values.trials, '--trials', 1);
const [FROM, TO] = values.window.split(',').map(Number);
if (!(FROM >= 0 && TO <= 1 && FROM < TO))
  throw new Error('--window must be two fractions a,b with 0 <= a < b <= 1');
const AGENTS = join(here, '..', 'test', 'fixtures', 'wo', 'agents.toml');

const pad = (n) => `wo-${String(n).padStart(2, '0')}`;
function woText(n) {
  const file = `src/${pad(n)}.txt`;
  return [
    '---',
    `id: local:t#${pad(n)}`,
    'kind: work-order',
    `title: Work order ${n}`,
    'status: ready',
    'blocked_by: []',
    'verified: true',
    'coverage_status: covered',
    'lockfile: []',
    'drift_guard:',
    '  symbols_resolved: true',
    '  acceptance_runnable: true',
    'coverage_override: null',
    '---',
    '## Goal',
    `Build part ${n}.`,
    `- **Acceptance:** \`grep -qx done ${file}\``,
    '## Files to touch',
    `- \`${file}\``,
    '## Done =',
    '- it exists',
    '',
  ].join('\n');
}

function makeTask() {
  const root = mkdtempSync(join(tmpdir(), 'wo-kill-'));
  const dir = join(root, 'task', 'work-orders');
  mkdirSync(dir, { recursive: true });
  for (const n of [1, 2, 3]) writeFileSync(join(dir, `${pad(n)}-part-${n}.md`), woText(n));
  const worktree = join(root, 'code');
  mkdirSync(worktree);
  const git = (...a) => spawnSync('git', a, { cwd: worktree, stdio: 'ignore' });
  git('init', '-q', '-b', 'main');
  git('config', 'user.email', 't@example.com');
  git('config', 'user.name', 'test');
  writeFileSync(join(worktree, 'README.md'), 'base\n');
  git('add', '-A');
  git('commit', '-qm', 'base');
  return { root, task: join(root, 'task'), dir, worktree };
}

function start(t) {
  const env = campaignEnv({ FAKE_COUNT: join(t.root, 'agent-calls.log') });
  const args = ['wo', 'run', t.task, '--worktree', t.worktree, '--root', t.root, '--builder-config', AGENTS];
  return startCli(CLI, args, { env });
}

/** What the finished task holds: halts, done work orders, and records that are missing or broken. */
function audit(t) {
  const names = readdirSync(t.dir);
  const halts = names
    .filter((n) => n.endsWith('.HALT'))
    .map((n) => {
      const marker = readJson(join(t.dir, n));
      const refusal = typeof marker?.refusal === 'string' ? `(${marker.refusal.slice(0, 200)})` : '';
      return `${n}:${marker?.reason}${refusal}`;
    });
  const done = [];
  const lost = [];
  for (const n of [1, 2, 3]) {
    const text = readFileSync(join(t.dir, `${pad(n)}-part-${n}.md`), 'utf8');
    if (!/^status: done$/m.test(text)) continue;
    done.push(pad(n));
    const ledger = readJson(join(t.root, '.loop', 'ledgers', `${pad(n)}.json`));
    if (!ledger) lost.push(`${pad(n)}:ledger_unreadable`);
    else if (ledger.final_outcome !== 'complete') lost.push(`${pad(n)}:ledger_${ledger.final_outcome}`);
  }
  const obs = join(t.dir, 'loop-obs.ndjson');
  if (existsSync(obs))
    for (const line of readFileSync(obs, 'utf8').split('\n').filter(Boolean))
      if (!isJson(line)) lost.push('obs_line_unparsable');
  return { halts, done, lost };
}

function isJson(line) {
  try {
    JSON.parse(line);
    return true;
  } catch {
    return false;
  }
}

// One undisturbed run sets the time scale the kill moments are drawn from.
const probe = makeTask();
const t0 = Date.now();
const baseline = await start(probe).done;
const span = Date.now() - t0;
rmSync(probe.root, { recursive: true, force: true });
console.log(`baseline: exit=${baseline.code} took=${span}ms cli=${CLI}`);

const totals = { trials: 0, killedMidRun: 0, haltedWos: 0, trialsWithHalts: 0, lost: 0, unfinished: 0 };
for (let trial = 1; trial <= TRIALS; trial += 1) {
  const t = makeTask();
  const at = Math.round(span * (FROM + (TO - FROM) * random()));
  const first = start(t);
  const raced = await Promise.race([first.done.then(() => 'ended'), sleep(at).then(() => 'due')]);
  if (raced === 'due') {
    first.child.kill('SIGKILL');
    totals.killedMidRun += 1;
  }
  await first.done;
  let last;
  let runs = 0;
  for (; runs < 6; runs += 1) {
    last = await start(t).done;
    if (last.code !== 3) break; // 3 = busy: an orphaned run still holds the task
    await sleep(500);
  }
  const { halts, done, lost } = audit(t);
  totals.trials += 1;
  totals.haltedWos += halts.length;
  if (halts.length > 0) totals.trialsWithHalts += 1;
  totals.lost += lost.length;
  if (done.length !== 3) totals.unfinished += 1;
  const outcome = (() => {
    try {
      return JSON.parse(last.stdout).outcome;
    } catch {
      return 'none';
    }
  })();
  console.log(
    `trial ${trial}: kill_at=${at}ms ${raced === 'due' ? 'killed' : 'ended-first'} rerun_exit=${last.code} outcome=${outcome} done=${done.length}/3 halts=[${halts.join(',')}] lost=[${lost.join(',')}]`,
  );
  rmSync(t.root, { recursive: true, force: true });
}
console.log(
  `summary: trials=${totals.trials} killed_mid_run=${totals.killedMidRun} halted_work_orders=${totals.haltedWos} trials_with_halts=${totals.trialsWithHalts} lost_records=${totals.lost} trials_not_all_done=${totals.unfinished}`,
);
