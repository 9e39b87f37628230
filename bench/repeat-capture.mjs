// `npm run bench` (repeat): what a state capture costs on a 10,000-file workspace, for the git and
// the filesystem recipe, measured through the real entry point. Each case is one
// `loop-ledger repeat --spec "true max=1"` (a start capture, then a pre and a post capture around a
// no-op step: three captures); the same command on an empty folder is the floor (process start,
// ledger writes, the report). Per capture = (case − floor) / 3. Cases run interleaved with a bare
// `node -e 0` (A, B, C, D, A, B…), so machine noise hits every case alike; warm-up rounds dropped.
// Children run without NODE_OPTIONS and NODE_EXTRA_CA_CERTS (see DESIGN.md). A benchmark, not a
// test: it prints what it measured and whether the aim was met, and exits 0 either way.
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const CLI = new URL('../dist/cli.js', import.meta.url).pathname;
const FILES = 10_000;
const AIM_MS = 300;
const WARMUP_ROUNDS = 1;
const ROUNDS = Number(process.env.BENCH_REPEAT_ROUNDS ?? 8);

const env = { ...process.env };
delete env.NODE_OPTIONS;
delete env.NODE_EXTRA_CA_CERTS;
delete env.CI;

const work = mkdtempSync(join(tmpdir(), 'loop-ledger-bench-repeat-'));
process.on('exit', () => rmSync(work, { recursive: true, force: true }));

/**
 * CPU time of the children this process has waited for (the CLI and the git processes it waited
 * for), in ms, from /proc (Linux; null elsewhere). Less sensitive than wall time to a machine
 * shared with other work: another process's load delays a capture but does not add CPU to it.
 */
function childCpuMs() {
  try {
    const fields = readFileSync('/proc/self/stat', 'utf8').split(') ')[1].split(' ');
    return ((Number(fields[13]) + Number(fields[14])) * 1000) / 100; // cutime + cstime, USER_HZ 100
  } catch {
    return null;
  }
}
const cpuSamples = {};
let lastCpu = null;

function run(args, expect) {
  const cpuBefore = childCpuMs();
  const started = process.hrtime.bigint();
  const r = spawnSync(process.execPath, args, { env, encoding: 'utf8', maxBuffer: 1 << 26 });
  const ms = Number(process.hrtime.bigint() - started) / 1e6;
  lastCpu = cpuBefore === null ? null : childCpuMs() - cpuBefore;
  if (!expect.includes(r.status)) {
    console.error(
      `bench: node ${args.join(' ').slice(0, 200)} exited ${r.status}\n${String(r.stderr).slice(0, 2000)}`,
    );
    process.exit(1);
  }
  return ms;
}

const contract = {
  purpose: 'Benchmark state capture',
  owner: 'bench',
  starting_state: 'a large workspace',
  inputs: ['src'],
  expected_outputs: ['nothing'],
  success_criteria: ['settled'],
  failure_criteria: ['none'],
  dependencies: ['node'],
  iteration_limit: 1_000_000,
  timeout_behaviour: 'pause',
  escalation_path: 'none',
  quality_rubric: [
    {
      dimension: 'd',
      evidence_command: 'echo 0',
      baseline: 0,
      target: 1,
      weight: 1,
      failure_threshold: -1,
      direction: 'higher-is-better',
      hard_gate: false,
    },
  ],
};
const contractPath = join(work, 'contract.json');
writeFileSync(contractPath, JSON.stringify(contract));

/** 100 folders × 100 files of ~300 bytes of source-like text. */
function populate(root) {
  for (let d = 0; d < FILES / 100; d++) {
    const dir = join(root, 'src', `module-${d}`);
    mkdirSync(dir, { recursive: true });
    for (let f = 0; f < 100; f++) {
      writeFileSync(join(dir, `file-${f}.ts`), `export const value${d}_${f} = ${d * 100 + f};\n`.repeat(6));
    }
  }
}

const setupStarted = Date.now();
const empty = join(work, 'empty');
const fsRoot = join(work, 'fs-10k');
const gitRoot = join(work, 'git-10k');
for (const dir of [empty, fsRoot, gitRoot]) mkdirSync(dir);
populate(fsRoot);
populate(gitRoot);
const git = (...args) => execFileSync('git', ['-C', gitRoot, ...args], { stdio: 'ignore' });
git('init', '-q');
git('add', '-A');
git('-c', 'user.name=b', '-c', 'user.email=b@e', 'commit', '-q', '-m', 'start');
// A realistic working tree: a few edits and untracked files beside the 10,000 committed ones.
for (let i = 0; i < 5; i++)
  writeFileSync(join(gitRoot, 'src', `module-${i}`, 'file-0.ts'), `// edited ${i}\n`);
for (let i = 0; i < 5; i++) writeFileSync(join(gitRoot, `notes-${i}.md`), `draft ${i}\n`);
git('status', '--porcelain'); // refresh the index's stat cache once, as any git user's tree has
console.log(
  `bench repeat: setup ${((Date.now() - setupStarted) / 1000).toFixed(1)} s (${FILES} files per workspace)`,
);

let sessionCounter = 0;
function repeatOnce(root) {
  const session = `b${++sessionCounter}`;
  run([CLI, 'open', '--root', root, '--session', session, '--contract', contractPath], [0]);
  // max=1 and a step that says nothing: one run, then Partial: max-cap (exit 10).
  return run(
    [
      CLI,
      'repeat',
      '--root',
      root,
      '--session',
      session,
      '--non-interactive',
      '--json',
      '--spec',
      'true max=1',
    ],
    [10],
  );
}

const cases = {
  'node -e 0': () => run(['-e', '0'], [0]),
  'repeat, empty folder (floor)': () => repeatOnce(empty),
  'repeat, fs recipe, 10,000 files': () => repeatOnce(fsRoot),
  'repeat, git recipe, 10,000 files': () => repeatOnce(gitRoot),
};
const samples = Object.fromEntries(Object.keys(cases).map((k) => [k, []]));
for (let round = 0; round < WARMUP_ROUNDS + ROUNDS; round++) {
  for (const [name, fn] of Object.entries(cases)) {
    const ms = fn();
    if (round >= WARMUP_ROUNDS) {
      samples[name].push(ms);
      if (lastCpu !== null) (cpuSamples[name] ??= []).push(lastCpu);
    }
  }
}
const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)];
};
const m = Object.fromEntries(Object.entries(samples).map(([k, v]) => [k, median(v)]));
const base = m['node -e 0'];
console.log(
  `bench repeat: medians of ${ROUNDS} interleaved rounds; ratios to node -e 0 (${base.toFixed(1)} ms)`,
);
for (const [name, ms] of Object.entries(m)) {
  console.log(`  ${name.padEnd(36)} ${ms.toFixed(1).padStart(8)} ms  ${(ms / base).toFixed(2).padStart(6)}×`);
}
const floor = m['repeat, empty folder (floor)'];
for (const recipe of ['fs', 'git']) {
  const total = m[`repeat, ${recipe} recipe, 10,000 files`];
  const perCapture = (total - floor) / 3;
  const verdict = perCapture < AIM_MS ? 'aim met' : 'aim NOT met';
  console.log(
    `  ${recipe} capture of 10,000 files: ${perCapture.toFixed(1)} ms per capture (${(perCapture / base).toFixed(2)}× node -e 0; aim < ${AIM_MS} ms: ${verdict})`,
  );
}
if (Object.keys(cpuSamples).length === Object.keys(cases).length) {
  const cpu = Object.fromEntries(Object.entries(cpuSamples).map(([k, v]) => [k, median(v)]));
  const cpuBase = cpu['node -e 0'];
  const cpuFloor = cpu['repeat, empty folder (floor)'];
  console.log(
    `bench repeat: CPU time (the CLI and its git children; 10 ms ticks), ratios to node -e 0 (${cpuBase.toFixed(0)} ms)`,
  );
  for (const recipe of ['fs', 'git']) {
    const perCapture = (cpu[`repeat, ${recipe} recipe, 10,000 files`] - cpuFloor) / 3;
    console.log(
      `  ${recipe} capture of 10,000 files: ${perCapture.toFixed(0)} ms CPU per capture (${(perCapture / cpuBase).toFixed(2)}× node -e 0's CPU)`,
    );
  }
}
