// Workspace checkpoints: how long `iterate --checkpoint` takes on a 10,000-file repository with
// 100 changed files (aim: under 300 ms for the checkpoint itself), and how much `.git` grows
// per checkpoint when nothing changed (aim: a few hundred bytes).
//
// The checkpoint's own cost is `iterate --checkpoint` minus plain `iterate` on the same ledger,
// measured interleaved (A, B, A, B…) so machine noise hits both. Children run with NODE_OPTIONS
// and NODE_EXTRA_CA_CERTS unset. Growth is the sum of file sizes under .git (apparent bytes, not
// disk blocks).
//
// Then the git steps that fill the private index and write its tree, measured alone and
// interleaved on the same repository: the sequence checkpoints used before (`add -A` of the
// changed paths as literal pathspecs, then `write-tree`) against the one they use now
// (`update-index --add --remove --replace -z --stdin` of the same paths, then
// `write-tree --missing-ok`), with the tree ids compared so both are known to write the same
// checkpoint. Usage: node bench/checkpoint.mjs [rounds]
// (LOOP_LEDGER_BENCH_BEFORE_CLI=path/to/dist/cli.js adds another build's `iterate --checkpoint`.)
// Beside them, in the same rounds, the floors: a bare `node -e 0` and `git --version`, and the
// number of git processes one checkpoint runs.
import { execFileSync, spawnSync } from 'node:child_process';
import {
  copyFileSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  utimesSync,
  writeFileSync,
} from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

const CLI = resolve(import.meta.dirname, '../dist/cli.js');
const rounds = Number(process.argv[2] ?? 7);
// Optional: another build's dist/cli.js, whose `iterate --checkpoint` is measured in the same rounds.
const BEFORE = process.env.LOOP_LEDGER_BENCH_BEFORE_CLI;
const env = { ...process.env };
delete env.NODE_OPTIONS;
delete env.NODE_EXTRA_CA_CERTS;

const git = (cwd, args) =>
  execFileSync('git', ['-c', 'user.name=B', '-c', 'user.email=b@b', ...args], { cwd, env, stdio: 'pipe' });
/**
 * Runs a program under bash's `time`: wall time, and the CPU time (user + system, to the
 * millisecond) of it and every process it ran, which a machine shared with other work inflates
 * far less than the wall.
 */
const timed = (argv, extraEnv = {}) => {
  const t = process.hrtime.bigint();
  const r = spawnSync(
    'bash',
    ['-c', 'TIMEFORMAT="%3U %3S"; { time "$@" >/dev/null 2>"$ERR"; } 2>&1 || exit 1', 'bash', ...argv],
    {
      env: { ...env, ERR: join(tmpdir(), `loop-ledger-bench-err-${process.pid}`), ...extraEnv },
      encoding: 'utf8',
    },
  );
  const wall = Number(process.hrtime.bigint() - t) / 1e6;
  if (r.status !== 0) throw new Error(`${argv.join(' ')} exited ${r.status}: ${r.stderr}`);
  const [user, sys] = (r.stdout.trim().split('\n').pop() ?? '').split(' ').map(Number);
  return { wall, cpu: (user + sys) * 1e3 };
};
const cli = (args) => timed([process.execPath, CLI, ...args]);

function bytesUnder(dir) {
  let total = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const p = join(dir, entry.name);
    total += entry.isDirectory() ? bytesUnder(p) : statSync(p).size;
  }
  return total;
}

const root = mkdtempSync(join(tmpdir(), 'loop-ledger-bench-checkpoint-'));
try {
  git(root, ['init', '-q']);
  // The setup's own commit of 10,000 files would start a background `gc --auto` that packs
  // objects while the growth is measured.
  git(root, ['config', 'gc.auto', '0']);
  writeFileSync(join(root, '.gitignore'), '.loop/\n');
  for (let d = 0; d < 100; d++) {
    mkdirSync(join(root, `d${d}`));
    for (let f = 0; f < 100; f++)
      writeFileSync(join(root, `d${d}`, `f${f}.txt`), `file ${d}/${f}\n`.repeat(20));
  }
  git(root, ['add', '-A']);
  git(root, ['commit', '-qm', 'base']);
  git(root, ['status', '--porcelain']); // refresh the index's stat data, as a user's would be
  const contract = join(tmpdir(), `loop-ledger-bench-contract-${process.pid}.json`);
  writeFileSync(contract, JSON.stringify(sampleContract()));
  const at = ['--root', root, '--session', 'b'];
  cli(['open', ...at, '--contract', contract]);
  for (let f = 0; f < 100; f++) writeFileSync(join(root, `d${f}`, 'f0.txt'), `changed ${f}\n`);

  const load = () =>
    loadavg()
      .map((l) => l.toFixed(1))
      .join(' ');
  const loadBefore = load();
  // The floors, in the same interleaved rounds: a bare node start and a bare git start.
  const nodeStart = [];
  const gitStart = [];
  const plain = [];
  const withCheckpoint = [];
  const before = [];
  for (let i = 0; i < rounds; i++) {
    nodeStart.push(timed([process.execPath, '-e', '0']));
    gitStart.push(timed(['git', '--version']));
    plain.push(cli(['iterate', ...at, '--outcome', 'continue']));
    withCheckpoint.push(cli(['iterate', ...at, '--outcome', 'continue', '--checkpoint']));
    if (BEFORE)
      before.push(
        timed([process.execPath, BEFORE, 'iterate', ...at, '--outcome', 'continue', '--checkpoint']),
      );
  }
  // How many git processes one checkpoint runs (each logs one `built-in` trace line).
  const trace = join(tmpdir(), `loop-ledger-bench-trace-${process.pid}`);
  timed([process.execPath, CLI, 'iterate', ...at, '--outcome', 'continue', '--checkpoint'], {
    GIT_TRACE: trace,
  });
  const gits = readFileSync(trace, 'utf8')
    .split('\n')
    .filter((l) => /trace: built-in: git /.test(l))
    .map((l) => l.replace(/.*built-in: git (?:-c \S+ )*(?:--\S+ )*/, '').split(' ')[0]);
  rmSync(trace, { force: true });
  const med = (xs, key) => xs.map((x) => x[key]).sort((a, b) => a - b)[Math.floor(xs.length / 2)];
  const row = (label, key) =>
    console.log(
      `  ${label.padEnd(22)} iterate ${med(plain, key).toFixed(0)} ms, with --checkpoint ${med(withCheckpoint, key).toFixed(0)} ms: the checkpoint's own ${(med(withCheckpoint, key) - med(plain, key)).toFixed(0)} ms (aim < 300 ms)`,
    );
  const gitBytes = bytesUnder(join(root, '.git'));
  const growthRounds = 10;
  for (let i = 0; i < growthRounds; i++) cli(['iterate', ...at, '--outcome', 'continue', '--checkpoint']);
  const growth = (bytesUnder(join(root, '.git')) - gitBytes) / growthRounds;
  console.log(
    `10,000 files, 100 changed, ${rounds} rounds (medians), load average ${loadBefore} → ${load()}:`,
  );
  row('wall', 'wall');
  row('CPU (user+sys, + git)', 'cpu');
  if (BEFORE)
    console.log(
      `  another build's iterate --checkpoint (${BEFORE}), same rounds: CPU ${med(before, 'cpu').toFixed(0)} ms, its checkpoint's own ${(med(before, 'cpu') - med(plain, 'cpu')).toFixed(0)} ms`,
    );
  console.log(
    `  floors (CPU): node -e 0 ${med(nodeStart, 'cpu').toFixed(0)} ms, git --version ${med(gitStart, 'cpu').toFixed(0)} ms; ` +
      `${gits.length} git processes per checkpoint (${gits.join(', ')}): ≥ ${(gits.length * med(gitStart, 'cpu')).toFixed(0)} ms of git start-ups alone`,
  );
  console.log(`  .git growth per unchanged checkpoint: ${growth.toFixed(0)} bytes   (aim: a few hundred)`);
  gitSteps(root);
  rmSync(contract, { force: true });
} finally {
  rmSync(root, { recursive: true, force: true });
}

/** The two ways of filling the private index and writing its tree, interleaved (see the top). */
function gitSteps(root) {
  const changed = Array.from({ length: 100 }, (_, f) => `d${f}/f0.txt`);
  const scratch = mkdtempSync(join(tmpdir(), 'loop-ledger-bench-index-'));
  const index = join(scratch, 'index');
  const pinned = ['-c', 'core.fsmonitor=false', '-c', 'core.untrackedCache=false', '-c', 'gc.auto=0'];
  // Each git under `sh -c '…; times'`, as the CLI above: its CPU time (user + system), which a
  // loaded machine inflates far less than the wall time.
  const step = (args, input) => {
    const out = execFileSync('sh', ['-c', '"$@" >"$OUT" || exit 1; times', 'sh', 'git', ...pinned, ...args], {
      cwd: root,
      input,
      env: { ...env, GIT_INDEX_FILE: index, OUT: join(scratch, 'out') },
      encoding: 'utf8',
    });
    const children = out.trim().split('\n').pop() ?? '';
    const ms = [...children.matchAll(/(\d+)m([\d.]+)s/g)].reduce(
      (sum, m) => sum + Number(m[1]) * 60e3 + Number(m[2]) * 1e3,
      0,
    );
    return { ms, out: readFileSync(join(scratch, 'out'), 'utf8').trim() };
  };
  const fresh = () => {
    const user = join(root, '.git', 'index');
    copyFileSync(user, index);
    const st = statSync(user);
    utimesSync(index, st.atime, Math.floor(st.mtimeMs / 1000));
  };
  const before = () => {
    fresh();
    const add = step(
      ['add', '-A', '--pathspec-from-file=-', '--pathspec-file-nul'],
      changed.map((p) => `:(top,literal)${p}`).join('\0'),
    );
    const tree = step(['write-tree']);
    return { fill: add.ms, tree: tree.ms, total: add.ms + tree.ms, id: tree.out };
  };
  const after = () => {
    fresh();
    const update = step(
      ['update-index', '--add', '--remove', '--replace', '-z', '--stdin'],
      changed.map((p) => `${p}\0`).join(''),
    );
    const tree = step(['write-tree', '--missing-ok']);
    return { fill: update.ms, tree: tree.ms, total: update.ms + tree.ms, id: tree.out };
  };
  const a = [];
  const b = [];
  try {
    for (let i = 0; i < rounds; i++) {
      a.push(before());
      b.push(after());
    }
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
  if (a.some((x) => x.id !== b[0].id) || b.some((x) => x.id !== b[0].id))
    throw new Error('the two sequences wrote different trees');
  const med = (xs, key) => xs.map((x) => x[key]).sort((p, q) => p - q)[Math.floor(xs.length / 2)];
  console.log(`git steps alone, ${rounds} interleaved rounds (medians, CPU user+sys):`);
  console.log(
    `  before: add -A ${med(a, 'fill').toFixed(0)} ms + write-tree ${med(a, 'tree').toFixed(0)} ms = ${med(a, 'total').toFixed(0)} ms`,
  );
  console.log(
    `  after:  update-index ${med(b, 'fill').toFixed(0)} ms + write-tree --missing-ok ${med(b, 'tree').toFixed(0)} ms = ${med(b, 'total').toFixed(0)} ms (${(med(b, 'total') / med(a, 'total')).toFixed(2)}× before; same tree)`,
  );
}

function sampleContract() {
  return {
    purpose: 'bench',
    owner: 'bench',
    starting_state: 'x',
    inputs: ['x'],
    expected_outputs: ['x'],
    success_criteria: ['x'],
    failure_criteria: ['x'],
    dependencies: ['git'],
    iteration_limit: 1000,
    timeout_behaviour: 'stop',
    escalation_path: 'x',
    quality_rubric: [
      {
        dimension: 'd',
        evidence_command: 'echo 0',
        baseline: 0,
        target: 1,
        weight: 100,
        failure_threshold: 0,
        direction: 'higher-is-better',
        hard_gate: false,
      },
    ],
  };
}
