// Kill campaign for `loop-ledger repeat`: each trial opens a session, starts a repeat whose step
// changes a file for several iterations, SIGKILLs it at a seeded random moment, then runs
// `repeat --session S` (as a person would after a crash) until the loop ends, and checks the
// ledger: `status` and `list` read it, no action is recorded twice, iterations are numbered
// without a gap, and the repeat finished settled.
//
//   node bench/kill-repeat.mjs [--cli dist/cli.js] [--kills 12] [--seed 1] [--changes 6]
//
// Prints one JSON line: trials, where each kill landed, lost records (an unreadable ledger, an
// action recorded twice, a gap in the iteration numbers, a repeat that never finished) and forged
// records (a record that says settled while the step still had changes to make).
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { campaignArgs, campaignEnv, runCli, wholeNumber } from './kill-kit.mjs';

const {
  values,
  cli: CLI,
  random,
} = campaignArgs({
  kills: { type: 'string', default: '12' },
  changes: { type: 'string', default: '6' },
});
const CHANGES = wholeNumber(values.changes, '--changes');
const env = campaignEnv();
delete env.CI;

const SESSION = 'kills';

// The step: while the counter in the root is below CHANGES, bump it and write one more file
// (slowly, so a kill can land mid-step); then say there is nothing left. The script lives
// outside the root so it is not part of the captured state.
const STEP_SOURCE = `
const { existsSync, readFileSync, writeFileSync } = require('node:fs');
const n = existsSync('count.txt') ? Number(readFileSync('count.txt', 'utf8')) : 0;
if (n >= ${CHANGES}) { console.log('no findings'); process.exit(0); }
setTimeout(() => {
  writeFileSync('part-' + (n + 1) + '.txt', 'part ' + (n + 1) + '\\n');
  writeFileSync('count.txt', String(n + 1));
  setTimeout(() => console.log('changed part ' + (n + 1) + '; more remaining'), 100);
}, 150);
`;

function cli(args, cwd) {
  return spawnSync(process.execPath, [CLI, ...args], { cwd, env, encoding: 'utf8' });
}

function trialRoot() {
  const outside = mkdtempSync(join(tmpdir(), 'kill-repeat-'));
  const root = join(outside, 'root');
  mkdirSync(root);
  writeFileSync(join(root, 'README.md'), 'A small project.\n');
  const step = join(outside, 'step.cjs');
  writeFileSync(step, STEP_SOURCE);
  const contract = join(outside, 'contract.json');
  writeFileSync(contract, JSON.stringify(CONTRACT));
  const opened = cli(['open', '--root', root, '--session', SESSION, '--contract', contract], root);
  if (opened.status !== 0) throw new Error(`open failed: ${opened.stderr}`);
  return { root, step };
}

const CONTRACT = {
  purpose: 'Split the notes into parts',
  owner: 'bench',
  starting_state: 'one file',
  inputs: ['README.md'],
  expected_outputs: ['parts'],
  success_criteria: ['every part written'],
  failure_criteria: ['a part lost'],
  dependencies: ['node'],
  iteration_limit: 50,
  timeout_behaviour: 'stop and record pause',
  escalation_path: 'ask the bench owner',
  quality_rubric: [
    {
      dimension: 'parts',
      evidence_command: 'ls -1 | wc -l',
      baseline: 1,
      target: 7,
      weight: 100,
      failure_threshold: 0,
      direction: 'higher-is-better',
      hard_gate: false,
    },
  ],
};

function repeat(root, args, killAfterMs) {
  const repeatArgs = ['repeat', '--root', root, '--session', SESSION, '--json', '--non-interactive', ...args];
  return runCli(CLI, repeatArgs, { cwd: root, env }, killAfterMs);
}

/** Lost and forged records of one trial's session. */
function audit(root) {
  const lost = [];
  const forged = [];
  const status = cli(['status', '--root', root, '--session', SESSION, '--json'], root);
  if (status.status !== 0 && status.status !== 4)
    lost.push(`status exit ${status.status}: ${status.stderr.trim()}`);
  const list = cli(['list', '--root', root, '--json'], root);
  if (list.status !== 0) lost.push(`list exit ${list.status}: ${list.stderr.trim()}`);
  let ledger;
  try {
    ledger = JSON.parse(readFileSync(join(root, '.loop/ledgers', `${SESSION}.json`), 'utf8'));
  } catch {
    return { lost: [...lost, 'ledger unreadable'], forged, iterations: 0 };
  }
  const actions = ledger.completed_actions ?? [];
  if (new Set(actions).size !== actions.length) lost.push('an action recorded twice');
  const iterations = ledger.iterations ?? [];
  iterations.forEach((it, i) => {
    if (it.n !== i + 1) lost.push(`iteration ${i + 1} is numbered ${it.n}`);
  });
  const repeats = iterations.filter((it) => it.repeat);
  const runs = repeats.map((it) => it.actions?.find((a) => a.startsWith('repeat-')));
  if (new Set(runs).size !== runs.length) lost.push('a repeat run recorded twice');
  if (ledger.repeat?.status !== 'finished' || ledger.repeat?.exit_reason !== 'settled')
    lost.push(`the repeat did not finish settled (${ledger.repeat?.status} / ${ledger.repeat?.exit_reason})`);
  const count = Number(readFileSync(join(root, 'count.txt'), 'utf8'));
  if (count !== CHANGES) lost.push(`the step made ${count} of ${CHANGES} changes`);
  const settledEarly = repeats.filter(
    (it) => it.repeat.classification === 'settled' && it !== repeats[repeats.length - 1],
  );
  if (settledEarly.length > 0) forged.push('a settled record before the last run');
  return { lost, forged, iterations: repeats.length };
}

const kills = wholeNumber(values.kills, '--kills');
const lost = [];
const forged = [];
const killedAt = [];
const iterations = [];
const restarts = [];
for (let trial = 0; trial < kills; trial++) {
  const { root, step } = trialRoot();
  const ms = Math.floor(100 + random() * 3500);
  const spec = `node ${JSON.stringify(step)} max=30`;
  const first = await repeat(root, ['--spec', spec], ms);
  killedAt.push(first.signal === 'SIGKILL' ? ms : `${ms} (ended first, exit ${first.code})`);
  let runs = 0;
  for (let i = 0; i < 4 && first.code !== 0; i++) {
    const again = await repeat(root, [], null);
    runs++;
    if (again.code === 0) break;
    // Killed before the repeat was started on the ledger: nothing to continue, so start it.
    if (/no repeat to continue/.test(again.stderr)) {
      const fresh = await repeat(root, ['--spec', spec], null);
      runs++;
      if (fresh.code === 0) break;
    }
  }
  restarts.push(runs);
  const a = audit(root);
  iterations.push(a.iterations);
  a.lost.forEach((x) => lost.push(`trial ${trial + 1}: ${x}`));
  a.forged.forEach((x) => forged.push(`trial ${trial + 1}: ${x}`));
}
console.log(
  JSON.stringify({
    cli: CLI,
    kills,
    killedAtMs: killedAt,
    repeatRunsAfterKill: restarts,
    iterationsRecorded: iterations,
    lost,
    forged,
  }),
);
