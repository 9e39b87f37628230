// Kill campaign for `loop-ledger run`: SIGKILLs at random moments, then the session is run again
// until it finishes, and the ledger is checked against the run folders. Optionally, rounds where
// the coder itself forges the run's ending and a PASS receipt and kills the harness.
//
//   node bench/kill-run.mjs [--cli dist/cli.js] [--kills 12] [--forgers 3] [--seed 1]
//
// Prints one JSON line: kills, forger rounds, lost records (a receipt whose ending the ledger does
// not hold, an action recorded twice, an unreadable ledger), forged records (a `complete` the
// run's own checks do not back, or a PASS receipt over a failing check).
import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { campaignArgs, campaignEnv, readJson, runCli, wholeNumber } from './kill-kit.mjs';

const here = new URL('.', import.meta.url).pathname;
const {
  values,
  cli: CLI,
  random,
} = campaignArgs({
  kills: { type: 'string', default: '12' },
  forgers: { type: 'string', default: '3' },
});
const FIXTURES = join(here, '../test/fixtures/run');
const env = campaignEnv();

function git(repo, ...args) {
  const r = spawnSync('git', args, { cwd: repo, encoding: 'utf8' });
  if (r.status !== 0) throw new Error(r.stderr);
}

function sampleRepo() {
  const repo = mkdtempSync(join(tmpdir(), 'kill-run-'));
  cpSync(join(FIXTURES, 'sample-target'), join(repo, 'sample-target'), { recursive: true });
  git(repo, 'init', '-q');
  git(repo, 'config', 'user.email', 'k@example.com');
  git(repo, 'config', 'user.name', 'k');
  git(repo, 'add', '-A');
  git(repo, 'commit', '-qm', 'base');
  return repo;
}

const SESSION = 'kills';
function args(check) {
  return [
    'run',
    '--objective',
    'Implement parseDuration',
    '--agent-config',
    join(FIXTURES, 'agents.toml'),
    '--allow',
    'sample-target/src/time/**',
    '--allow',
    'sample-target/tests/**',
    '--check',
    check,
    '--print-json',
    '--session',
    SESSION,
    '--no-require-clean',
  ];
}

function run(repo, mode, check, killAfterMs) {
  return runCli(CLI, args(check), { cwd: repo, env: { ...env, LOOP_FIXTURE_MODE: mode } }, killAfterMs);
}

/** Lost and forged records of the session, from the ledger and the run folders. */
function audit(repo) {
  const problems = { lost: [], forged: [] };
  const ledger = readJson(join(repo, '.loop/ledgers', `${SESSION}.json`));
  if (!ledger) return { lost: ['ledger unreadable'], forged: [] };
  const actions = ledger.completed_actions;
  if (new Set(actions).size !== actions.length) problems.lost.push('an action recorded twice');
  const runsDir = join(repo, '.loop/runs');
  for (const name of existsSync(runsDir) ? readdirSync(runsDir) : []) {
    const dir = join(runsDir, name);
    const link = readJson(join(dir, 'run-ledger.json'));
    if (!link) continue;
    const records = ledger.iterations.filter((i) => (i.epoch ?? 1) === link.epoch);
    const receipt = readJson(join(dir, 'final-receipt.json'));
    const epochEntry = (ledger.epochs ?? []).find((e) => e.n === link.epoch);
    const closed =
      ledger.epoch > link.epoch || ledger.status === 'closed' || (epochEntry && epochEntry.final_outcome);
    if (receipt && !closed) problems.lost.push(`${name}: a receipt whose ending the ledger does not hold`);
    for (const rec of records.filter((r) => r.outcome === 'complete')) {
      const attempt = /\/(\d\d)\/coder$/.exec(rec.actions.find((a) => a.endsWith('/coder')) ?? '')?.[1];
      const checks = attempt ? readJson(join(dir, 'attempts', attempt, 'checks.json')) : undefined;
      if (!checks || !checks.every((c) => c.returncode === 0))
        problems.forged.push(`${name}: complete without passing checks`);
    }
    if (receipt?.final_verdict === 'PASS' && !receipt.checks.every((c) => c.returncode === 0))
      problems.forged.push(`${name}: PASS receipt over a failing check`);
  }
  return problems;
}

const repo = sampleRepo();
const kills = wholeNumber(values.kills, '--kills');
const forgers = wholeNumber(values.forgers, '--forgers');
const lost = new Set();
const forged = new Set();
const killedAt = [];
for (let round = 0; round < kills + forgers; round++) {
  if (round < kills) {
    const ms = Math.floor(300 + random() * 6000);
    const r = await run(repo, 'repair', 'node sample-target/tests/check.mjs', ms);
    killedAt.push(r.signal === 'SIGKILL' ? ms : `${ms} (ended first)`);
    // Run the session to its end, as a person would after a crash.
    for (let i = 0; i < 3; i++) {
      const again = await run(repo, 'repair', 'node sample-target/tests/check.mjs', null);
      if (again.code === 0 || again.code === 1) break;
    }
  } else {
    // A coder that forges its ending and a PASS receipt, then kills the harness; the check fails.
    await run(repo, 'coder-forges-ending', 'false', null);
    await run(repo, 'noop', 'false', null);
  }
  const a = audit(repo);
  a.lost.forEach((x) => lost.add(x));
  a.forged.forEach((x) => forged.add(x));
}
console.log(
  JSON.stringify({
    cli: CLI,
    kills,
    forgerRounds: forgers,
    killedAtMs: killedAt,
    lost: [...lost],
    forged: [...forged],
  }),
);
