// `npm run bench` (harness part): the overhead `loop-ledger run` adds per attempt — git snapshots,
// diffs, run files, the critic brief, the ledger record — with agents and a check that exit at
// once (`sh -c`), as a multiple of a bare `node -e 0` measured in the same interleaved run.
//
// per attempt = (run with 6 attempts − run with 1 attempt) / 5 − 3 × (one `sh -c` spawn), the
// last term being the agents' and check's own time (coder, check, reviewer). A benchmark, not a
// test: it prints what it measured and whether the aim (< 3× node -e 0 per attempt) was met.
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const CLI = new URL('../dist/cli.js', import.meta.url).pathname;
const ROUNDS = Number(process.env.BENCH_HARNESS_ROUNDS ?? 8);
const WARMUP = 1;
const MANY = 6;

const env = { ...process.env };
delete env.NODE_OPTIONS;
delete env.NODE_EXTRA_CA_CERTS;

const work = mkdtempSync(join(tmpdir(), 'loop-ledger-bench-harness-'));
process.on('exit', () => rmSync(work, { recursive: true, force: true }));

const config = join(work, 'agents.toml');
writeFileSync(
  config,
  `[explorer]
cmd = "true"
[coder]
cmd = "echo $LOOP_ATTEMPT >> src/a.txt"
writes = true
[code-reviewer]
cmd = "echo '{{\\"verdict\\": \\"NEEDS_CHANGES\\", \\"findings\\": [\\"again\\"]}}'"
`,
);

function time(file, args, options = {}) {
  const started = process.hrtime.bigint();
  const r = spawnSync(file, args, { env, encoding: 'utf8', ...options });
  const ms = Number(process.hrtime.bigint() - started) / 1e6;
  if (r.status !== 0 && !(options.expect ?? [0]).includes(r.status)) {
    console.error(`bench: ${file} ${args.join(' ')} exited ${r.status}\n${r.stderr}`);
    process.exit(1);
  }
  return ms;
}

let repoCount = 0;
function freshRepo() {
  const repo = join(work, `repo-${repoCount++}`);
  mkdirSync(join(repo, 'src'), { recursive: true });
  writeFileSync(join(repo, 'src', 'a.txt'), 'start\n');
  for (const args of [
    ['init', '-q'],
    ['add', '-A'],
    ['-c', 'user.email=b@e', '-c', 'user.name=b', 'commit', '-qm', 'init'],
  ])
    spawnSync('git', args, { cwd: repo });
  return repo;
}

function runHarness(attempts) {
  const repo = freshRepo();
  return time(
    process.execPath,
    [
      CLI,
      'run',
      '--objective',
      'bench',
      '--agent-config',
      config,
      '--allow',
      'src/**',
      '--check',
      'true',
      '--max-attempts',
      String(attempts),
    ],
    { cwd: repo, expect: [1] },
  );
}

const samples = { node: [], sh: [], one: [], many: [] };
for (let round = 0; round < ROUNDS + WARMUP; round++) {
  const node = time(process.execPath, ['-e', '0']);
  const sh = time('/bin/sh', ['-c', 'true']);
  const one = runHarness(1);
  const many = runHarness(MANY);
  if (round < WARMUP) continue;
  samples.node.push(node);
  samples.sh.push(sh);
  samples.one.push(one);
  samples.many.push(many);
}

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const node = median(samples.node);
const sh = median(samples.sh);
const perAttempt = (median(samples.many) - median(samples.one)) / (MANY - 1) - 3 * sh;
const ratio = perAttempt / node;
console.log(`harness (median of ${ROUNDS} interleaved rounds)`);
console.log(`  node -e 0                     ${node.toFixed(1)} ms`);
console.log(`  sh -c true (an instant agent) ${sh.toFixed(1)} ms`);
console.log(
  `  run, 1 attempt                ${median(samples.one).toFixed(1)} ms  (${(median(samples.one) / node).toFixed(2)}× node -e 0)`,
);
console.log(`  run, ${MANY} attempts               ${median(samples.many).toFixed(1)} ms`);
console.log(
  `  overhead per attempt          ${perAttempt.toFixed(1)} ms = ${ratio.toFixed(2)}× node -e 0  (aim < 3×: ${ratio < 3 ? 'met' : 'NOT met'})`,
);
