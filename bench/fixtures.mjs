// Fixtures shared by the benchmarks: a contract, a realistic git diff of any size, and ledgers
// of any length in the CLI's own format (cloned from real records the CLI wrote).
import { spawn, spawnSync } from 'node:child_process';
import {
  closeSync,
  copyFileSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  openSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export const CLI = new URL('../dist/cli.js', import.meta.url).pathname;

/** Children run without NODE_OPTIONS and NODE_EXTRA_CA_CERTS (the latter adds ~80 ms per start here). */
export const env = { ...process.env };
delete env.NODE_OPTIONS;
delete env.NODE_EXTRA_CA_CERTS;

const HAS_PROC_STAT = existsSync('/proc/self/stat');

/**
 * CPU time (user + system, ms) of every child this process has waited for, from /proc/self/stat
 * (cutime + cstime, in 10 ms ticks), or null off Linux. The difference around one spawnSync is
 * that child's CPU: on a machine shared with other work it is far steadier than wall time, which
 * counts every moment the child waited for a core. Averaged over rounds, the 10 ms tick washes out.
 */
export function childrenCpuMs() {
  if (!HAS_PROC_STAT) return null;
  const stat = readFileSync('/proc/self/stat', 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' '); // fields from the 3rd on
  return (Number(fields[13]) + Number(fields[14])) * 10;
}

let drain;
/**
 * The write end of a pipe that a `cat > /dev/null` reads for the whole benchmark (a FIFO), or
 * null where there is no mkfifo. Children print into it: a real pipe, drained as fast as it
 * fills, by a reader that keeps nothing. spawnSync's own pipe keeps every chunk and joins them
 * at exit, and on a machine whose fresh pages are slow to fault (seen here: ~13 µs a page) that
 * reader's memory costs a 20 MiB packet ~150 ms of the child's wall time, the same for any
 * program printing those bytes; `keepOutput` cases measure that reader too.
 */
function drainFd() {
  if (drain !== undefined) return drain;
  drain = null;
  const dir = mkdtempSync(join(tmpdir(), 'loop-ledger-bench-drain-'));
  const fifo = join(dir, 'stdout');
  if (spawnSync('mkfifo', [fifo]).status !== 0) {
    rmSync(dir, { recursive: true, force: true });
    return drain;
  }
  // Unreferenced, so a benchmark that ends without process.exit is not held open by cat.
  spawn('cat', [fifo], { stdio: ['ignore', 'ignore', 'inherit'] }).unref();
  drain = openSync(fifo, 'w'); // returns once cat has opened the FIFO to read
  process.on('exit', () => {
    closeSync(drain); // cat reads end-of-file and exits
    rmSync(dir, { recursive: true, force: true });
  });
  return drain;
}

/** How run() reads the children's stdout, in words for the report: the drained FIFO, or spawnSync's kept pipe. */
export function stdoutReader() {
  return drainFd() === null
    ? "spawnSync's pipe, kept (no mkfifo here)"
    : 'a pipe that cat drains to /dev/null';
}

/**
 * Runs `node …args`, timing spawn to exit (and its CPU time); exits the benchmark when the
 * command fails outright. stdout goes to the draining pipe, or with `keepOutput` to
 * spawnSync's pipe, which keeps it all (as a caller that collects the output does). `extraEnv`
 * is added to the children's environment (bench/pieces.mjs switches a fast path off with it).
 * `program` runs something other than this node (the original engine's Python, when given).
 */
export function run(args, expect = [0], { keepOutput = false, extraEnv, program = process.execPath } = {}) {
  const fd = keepOutput ? null : drainFd();
  const stdio = ['pipe', fd ?? 'pipe', 'pipe'];
  const cpuBefore = childrenCpuMs();
  const started = process.hrtime.bigint();
  // stdout stays bytes: decoding a 20 MiB packet here would be timed as the command's own work.
  const childEnv = extraEnv === undefined ? env : { ...env, ...extraEnv };
  const r = spawnSync(program, args, { env: childEnv, stdio, maxBuffer: 1 << 30 });
  const ms = Number(process.hrtime.bigint() - started) / 1e6;
  if (!expect.includes(r.status)) {
    console.error(
      `bench: ${program === process.execPath ? 'node' : program} ${args.join(' ').slice(0, 300)} exited ${r.status} ${r.signal ?? ''}`,
    );
    console.error(String(r.stderr).slice(0, 2000));
    process.exit(1);
  }
  const cpuAfter = childrenCpuMs();
  return { ms, cpuMs: cpuBefore === null ? null : cpuAfter - cpuBefore };
}
export const cli = (args, expect) => run([CLI, ...args], expect);

export const contract = {
  purpose: 'Raise parser test coverage without slowing the build',
  owner: 'parser team',
  starting_state: 'coverage 61%, build 38 s',
  inputs: ['src/parser'],
  expected_outputs: ['tests covering the parser'],
  success_criteria: ['coverage >= 80%'],
  failure_criteria: ['an existing test fails'],
  dependencies: ['node'],
  iteration_limit: 1_000_000,
  timeout_behaviour: 'record pause and stop',
  escalation_path: 'open an issue for the parser team',
  quality_rubric: [
    {
      dimension: 'coverage',
      evidence_command: 'echo 61',
      baseline: 61,
      target: 80,
      weight: 70,
      failure_threshold: 55,
      direction: 'higher-is-better',
      hard_gate: true,
    },
    {
      dimension: 'build-seconds',
      evidence_command: 'ls -1 | wc -l',
      baseline: 38,
      target: 30,
      weight: 30,
      failure_threshold: 45,
      direction: 'lower-is-better',
      hard_gate: false,
    },
  ],
};

export /**
 * A git diff shaped like a real one, deterministic: modified, added, deleted and renamed files
 * across nested folders, index lines, several hunks each with context, removals and additions.
 */
function realisticDiff(bytes) {
  let seed = 12345;
  const rand = (n) => {
    seed = (seed * 1103515245 + 12345) & 0x7fffffff;
    return seed % n;
  };
  const words = ['value', 'result', 'token', 'parser', 'node', 'scope', 'index', 'buffer', 'state', 'error'];
  const line = () =>
    `  ${'  '.repeat(rand(3))}const ${words[rand(10)]}${rand(100)} = ${words[rand(10)]}.${words[rand(10)]}(${rand(1000)}, '${words[rand(10)]}');`;
  const hex = () => rand(0x7fffffff).toString(16).padStart(8, '0').slice(0, 7);
  const parts = [];
  let size = 0;
  for (let file = 0; size < bytes; file += 1) {
    const path = `packages/pkg${file % 23}/src/${words[file % 10]}/${words[(file * 7) % 10]}-${file}.ts`;
    const kind =
      file % 20 === 0 ? 'new' : file % 29 === 0 ? 'deleted' : file % 31 === 0 ? 'renamed' : 'modified';
    let text;
    if (kind === 'new') {
      text = `diff --git a/${path} b/${path}\nnew file mode 100644\nindex 0000000..${hex()}\n--- /dev/null\n+++ b/${path}\n@@ -0,0 +1,12 @@\n`;
      for (let i = 0; i < 12; i += 1) text += `+${line()}\n`;
    } else if (kind === 'deleted') {
      text = `diff --git a/${path} b/${path}\ndeleted file mode 100644\nindex ${hex()}..0000000\n--- a/${path}\n+++ /dev/null\n@@ -1,8 +0,0 @@\n`;
      for (let i = 0; i < 8; i += 1) text += `-${line()}\n`;
    } else {
      const from = kind === 'renamed' ? path.replace('/src/', '/lib/') : path;
      text = `diff --git a/${from} b/${path}\n`;
      if (kind === 'renamed') text += `similarity index 91%\nrename from ${from}\nrename to ${path}\n`;
      text += `index ${hex()}..${hex()} 100644\n--- a/${from}\n+++ b/${path}\n`;
      for (let hunk = 0, at = 1 + rand(40); hunk < 1 + rand(5); hunk += 1, at += 30 + rand(200)) {
        text += `@@ -${at},7 +${at},8 @@ export function ${words[rand(10)]}${hunk}() {\n`;
        text += ` ${line()}\n ${line()}\n ${line()}\n-${line()}\n+${line()}\n+${line()}\n ${line()}\n ${line()}\n`;
      }
    }
    parts.push(text);
    size += text.length;
  }
  return parts.join('');
}

export const ledgerFile = (at, session) => join(at, '.loop', 'ledgers', `${session}.json`);

/** A 10-iteration ledger made by the CLI itself: measured and unmeasured records, notes, files. Returns its text. */
export function makeBaseLedger(root, contractPath) {
  cli(['open', '--root', root, '--session', 's10', '--contract', contractPath]);
  for (let i = 1; i <= 10; i += 1) {
    const measured =
      i % 3 === 0 ? ['--measure', `coverage=${61 + i}`, '--measure', `build-seconds=${38 - i / 2}`] : [];
    cli([
      'iterate',
      '--root',
      root,
      '--session',
      's10',
      '--outcome',
      'continue',
      '--action',
      `step-${i}`,
      '--files-changed',
      `src/parser/part${i}.ts`,
      '--command-run',
      'npm test',
      '--note',
      `iteration ${i} of the parser work`,
      ...measured,
    ]);
  }
  return readFileSync(ledgerFile(root, 's10'), 'utf8');
}

/** A ledger of `count` records in the CLI's own format: the real records, cloned with new n and actions. */
export function ledgerOf(base10, count, session) {
  const ledger = JSON.parse(base10);
  const records = ledger.iterations;
  const iterations = [];
  for (let n = 1; n <= count; n += 1) {
    const record = { ...records[(n - 1) % records.length], n, actions: [`step-${n}`] };
    iterations.push(record);
  }
  return (
    JSON.stringify(
      { ...ledger, session, iterations, completed_actions: iterations.map((r) => r.actions[0]) },
      null,
      2,
    ) + '\n'
  );
}

/**
 * `value` as the original engine writes a ledger: Python's `json.dumps(d, indent=2,
 * sort_keys=True)` (ensure_ascii on: every character outside printable ASCII escaped; with an
 * indent the separators are ',' and ': '), plus the newline it ends the file with. Numbers
 * are written as JSON.stringify writes them, which is what Python writes for every number these
 * fixtures hold (integers and short decimals).
 */
export function pythonDumps(value, indent = '') {
  if (value === null || typeof value !== 'object') {
    const text = JSON.stringify(value);
    return typeof value === 'string'
      ? text.replace(/[^\x20-\x7e]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`)
      : text;
  }
  const inner = `${indent}  `;
  if (Array.isArray(value)) {
    if (value.length === 0) return '[]';
    return `[\n${value.map((item) => inner + pythonDumps(item, inner)).join(',\n')}\n${indent}]`;
  }
  const keys = Object.keys(value).sort();
  if (keys.length === 0) return '{}';
  const members = keys.map((key) => `${inner}${pythonDumps(key)}: ${pythonDumps(value[key], inner)}`);
  return `{\n${members.join(',\n')}\n${indent}}`;
}

/**
 * A `count`-record ledger as the original engine wrote it (no schema_version, no seal, its
 * layout: every record spread over many lines), for the "first touch" cases. Returns its text.
 */
export function originalLedgerOf(base10, count, session) {
  const ledger = JSON.parse(ledgerOf(base10, count, session));
  delete ledger.schema_version;
  delete ledger.records_sha256;
  delete ledger.records_summary;
  return `${pythonDumps(ledger)}\n`;
}

/**
 * Writes the original engine's ledger of `count` records and returns a function that puts it
 * back (untimed, before each timed run: a first touch is only first once).
 */
export function preparedOriginal(base10, work, at, session, count) {
  mkdirSync(join(at, '.loop', 'ledgers'), { recursive: true });
  const saved = join(work, `${session}.original.json`);
  writeFileSync(saved, originalLedgerOf(base10, count, session));
  const restore = () => copyFileSync(saved, ledgerFile(at, session));
  restore();
  return restore;
}

/**
 * Writes a `count`-record ledger, lets the CLI rewrite it once (so it is byte-for-byte its own
 * layout), keeps that text, and returns a function that puts it back (run untimed before each
 * timed run of a command that changes the ledger).
 */
export function prepared(base10, work, at, session, count) {
  mkdirSync(join(at, '.loop', 'ledgers'), { recursive: true });
  writeFileSync(ledgerFile(at, session), ledgerOf(base10, count - 1, session));
  cli(['iterate', '--root', at, '--session', session, '--outcome', 'continue', '--action', `step-${count}`]);
  const text = readFileSync(ledgerFile(at, session), 'utf8');
  if (JSON.parse(text).iterations.length !== count) throw new Error(`prepared ${session} badly`);
  const saved = join(work, `${session}.base.json`);
  writeFileSync(saved, text);
  return () => copyFileSync(saved, ledgerFile(at, session));
}

/** Mean of a list of numbers. */
export function mean(values) {
  return values.reduce((a, b) => a + b, 0) / values.length;
}

/** Median of a list of numbers. */
export function median(values) {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}

/** Prints rows (first row the header) as an aligned table, first column left-aligned. */
export function printTable(rows) {
  const widths = rows[0].map((_, i) => Math.max(...rows.map((r) => String(r[i]).length)));
  const fmt = (r) =>
    r
      .map((cell, i) => (i === 0 ? String(cell).padEnd(widths[i]) : String(cell).padStart(widths[i])))
      .join('  ');
  console.log(fmt(rows[0]));
  console.log(widths.map((w) => '-'.repeat(w)).join('  '));
  for (const r of rows.slice(1)) console.log(fmt(r));
}
