// The demo workspace `npm start` opens: a git repository with a loop contract, a ledger of four
// iterations across two epochs, and an uncommitted change waiting for review.
// The ledger is written as JSON in the format of the original engine's ledger for now; it is
// meant to be recorded through the `loop-ledger` CLI once that exists.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';

const SESSION = 'csv-importer';

const contract = {
  purpose: 'Make the CSV importer reject malformed rows with a message that names the row.',
  owner: 'demo',
  starting_state: 'src/importer.js accepts any row and fails later with an undefined field.',
  inputs: ['src/importer.js', 'test/importer.test.js'],
  expected_outputs: ['malformed rows rejected with their row number', 'tests covering short and long rows'],
  success_criteria: ['node --test passes', 'no TODO markers left in src/'],
  failure_criteria: ['a valid row is rejected', 'the public import() signature changes'],
  dependencies: ['node'],
  iteration_limit: 6,
  timeout_behaviour: 'pause the loop and record where it stopped',
  escalation_path: 'ask the importer maintainer',
  quality_rubric: [
    {
      dimension: 'failing_tests',
      // Counts the failing tests of test/importer.test.js (TAP's "# fail N" line).
      evidence_command: "node --test --test-reporter=tap test/ 2>&1 | sed -n 's/^# fail //p'",
      baseline: 3,
      target: 0,
      weight: 60,
      failure_threshold: 3,
      direction: 'lower-is-better',
      hard_gate: true,
    },
    {
      dimension: 'todo_markers',
      // The TODO notes left in the importer's sources: each one is known unfinished work.
      evidence_command: 'cat src/*.js | grep -c TODO',
      baseline: 2,
      target: 0,
      weight: 40,
      failure_threshold: 4,
      direction: 'lower-is-better',
      hard_gate: false,
    },
  ],
};

const round4 = (x) => Math.round(x * 10_000) / 10_000;

/** The rubric evaluation of one set of measurements (the rubric rules). */
function evaluate(measurements) {
  const dimensions = contract.quality_rubric.map((d) => {
    const measured = measurements[d.dimension];
    const gateFailed =
      d.direction === 'lower-is-better' ? measured > d.failure_threshold : measured < d.failure_threshold;
    const raw = ((measured - d.baseline) / (d.target - d.baseline)) * 100;
    return {
      dimension: d.dimension,
      measured,
      score: round4(Math.min(100, Math.max(0, raw))),
      weight: d.weight,
      hard_gate: d.hard_gate,
      must_not_regress: false,
      gate_failed: gateFailed,
      failure_threshold: d.failure_threshold,
      evidence_command: d.evidence_command,
    };
  });
  const totalWeight = dimensions.reduce((sum, d) => sum + d.weight, 0);
  const weightedTotal = round4(dimensions.reduce((sum, d) => sum + d.weight * d.score, 0) / totalWeight);
  const hardGateFailures = dimensions.filter((d) => d.hard_gate && d.gate_failed).map((d) => d.dimension);
  return {
    dimensions,
    weighted_total: weightedTotal,
    hard_gate_failures: hardGateFailures,
    verdict: hardGateFailures.length > 0 ? 'fail' : 'pass',
  };
}

function record(n, epoch, timestamp, fields) {
  const measurements = fields.measurements ?? null;
  return {
    n,
    timestamp,
    epoch,
    reported_outcome: fields.outcome,
    outcome: fields.outcome,
    stall: null,
    error_signature: null,
    state_hash: null,
    dependency_missing: null,
    actions: fields.actions,
    baseline: measurements ? fields.baseline : null,
    measurements,
    evaluation: measurements ? evaluate(measurements) : null,
    files_changed: fields.files_changed ?? [],
    commands_run: fields.commands_run ?? [],
    evidence_paths: fields.evidence_paths ?? [],
    critic_verdict: fields.critic_verdict ?? null,
    critic_next: fields.critic_next ?? null,
    critic_brief: fields.critic_brief ?? null,
    decision: fields.decision ?? null,
    blocker: null,
    evidence: null,
    recommended_next: null,
    note: fields.note ?? null,
  };
}

const declared = { failing_tests: 3, todo_markers: 2 };
const iterations = [
  record(1, 1, '2025-11-20T09:02:11Z', {
    outcome: 'continue',
    actions: ['read-importer'],
    measurements: { failing_tests: 3, todo_markers: 2 },
    baseline: declared,
    commands_run: [contract.quality_rubric[0].evidence_command, contract.quality_rubric[1].evidence_command],
    note: 'Mapped where rows are parsed; no validation today.',
  }),
  record(2, 1, '2025-11-20T09:31:40Z', {
    outcome: 'revise',
    actions: ['add-row-validation'],
    measurements: { failing_tests: 2, todo_markers: 3 },
    baseline: { failing_tests: 3, todo_markers: 2 },
    files_changed: ['src/importer.js'],
    commands_run: [contract.quality_rubric[0].evidence_command, contract.quality_rubric[1].evidence_command],
    evidence_paths: ['logs/test-run-2.txt'],
    critic_verdict: 'REVISE',
    critic_next: 'Move validation into its own function and report the row number.',
    critic_brief: '5d0c7e1f2a9b3c44',
    decision: 'revise',
    note: 'Validation works but is tangled into the parser.',
  }),
  record(3, 2, '2025-11-20T10:05:02Z', {
    outcome: 'continue',
    actions: ['split-validator'],
    measurements: { failing_tests: 1, todo_markers: 1 },
    baseline: { failing_tests: 2, todo_markers: 3 },
    files_changed: ['src/importer.js', 'src/validate-row.js'],
    commands_run: [contract.quality_rubric[0].evidence_command, contract.quality_rubric[1].evidence_command],
    note: 'Validator split out; one test still expects the old message.',
  }),
  record(4, 2, '2025-11-20T10:22:47Z', {
    outcome: 'continue',
    actions: ['report-row-numbers'],
    files_changed: ['src/importer.js'],
    note: 'Row numbers added to messages; change left uncommitted for review.',
  }),
];

const ledger = {
  schema_version: 1,
  session: SESSION,
  contract,
  status: 'open',
  final_outcome: null,
  opened_at: '2025-11-20T09:58:30Z',
  epoch: 2,
  epochs: [
    {
      n: 1,
      contract,
      final_outcome: 'revise',
      iterations: [1, 2],
      close_note: 'Validation works but is tangled into the parser.',
      close_blocker: null,
      close_evidence: null,
      close_recommended_next: null,
    },
  ],
  baseline_provenance: { failing_tests: 'measured', todo_markers: 'measured' },
  iterations,
  completed_actions: iterations.flatMap((r) => r.actions),
  resumed: 0,
  stall_threshold: 3,
  pending_brief: null,
};

/** Keys sorted at every level, as the ledger format writes them. */
function sortedJson(value) {
  const sortKeys = (v) =>
    Array.isArray(v)
      ? v.map(sortKeys)
      : v && typeof v === 'object'
        ? Object.fromEntries(
            Object.keys(v)
              .sort()
              .map((k) => [k, sortKeys(v[k])]),
          )
        : v;
  return JSON.stringify(sortKeys(value), null, 2) + '\n';
}

const committedImporter = `// Imports rows of "name,email,age" into plain objects.
// TODO: refuse a row with too few or too many cells.
// TODO: name the row in every error message.
exports.importCsv = function importCsv(text) {
  return text
    .trim()
    .split('\\n')
    .map((line) => {
      const [name, email, age] = line.split(',');
      return { name, email, age: Number(age) };
    });
};
`;

const reviewedImporter = `// Imports rows of "name,email,age" into plain objects; a malformed row is refused by number.
exports.importCsv = function importCsv(text) {
  return text
    .trim()
    .split('\\n')
    .map((line, index) => {
      const cells = line.split(',');
      if (cells.length !== 3) throw new Error(\`row \${index + 1}: expected 3 cells, found \${cells.length}\`);
      const [name, email, age] = cells;
      return { name, email, age: Number(age) };
    });
};
`;

// The tests the failing_tests dimension counts: three fail on the committed importer, none on
// the change waiting for review.
const importerTests = `const assert = require('node:assert/strict');
const { test } = require('node:test');
const { importCsv } = require('../src/importer.js');

test('imports well-formed rows', () => {
  assert.deepEqual(importCsv('ada,ada@example.org,36'), [{ name: 'ada', email: 'ada@example.org', age: 36 }]);
});

test('refuses a short row, naming it', () => {
  assert.throws(() => importCsv('ada,ada@example.org'), /row 1/);
});

test('refuses a long row, naming it', () => {
  assert.throws(() => importCsv('ada,ada@example.org,36\\nbob,bob@example.org,41,extra'), /row 2/);
});

test('says how many cells a row needs', () => {
  assert.throws(() => importCsv('just-one-cell'), /expected 3 cells/);
});
`;

// A task with one work order, so the Work Orders view has something to show and run.
const demoWorkOrder = `---
id: local:row-numbers#wo-01
title: "Name the row in every importer error"
status: ready
blocked_by: []
---
## Files to touch
- \`src/importer.js\`

## Acceptance
- \`node --test test/\` exits 0
`;

function write(root, relative, text) {
  const path = join(root, relative);
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, text);
}

function git(root, args) {
  const r = spawnSync(
    'git',
    ['-c', 'user.name=Loop Ledger Demo', '-c', 'user.email=demo@example.invalid', ...args],
    {
      cwd: root,
      encoding: 'utf8',
    },
  );
  if (r.status !== 0) throw new Error(`git ${args.join(' ')} failed: ${r.stderr || r.error?.message}`);
}

/** Creates the demo under `root` unless it is already there (or `fresh` asks to rebuild it). */
export function prepareDemoWorkspace(root, { fresh = false } = {}) {
  if (existsSync(join(root, '.git')) && !fresh) return { root, created: false };
  rmSync(root, { recursive: true, force: true });
  mkdirSync(root, { recursive: true });
  write(
    root,
    'README.md',
    '# CSV importer (Loop Ledger demo)\n\nA tiny project whose work loop is recorded in `.loop/`.\n',
  );
  write(root, 'src/importer.js', committedImporter);
  write(root, 'test/importer.test.js', importerTests);
  write(root, 'tasks/row-numbers/work-orders/wo-01-name-the-row.md', demoWorkOrder);
  // The window opens on the demo session: the Loop Ledger view shown, the session's overview open.
  write(
    root,
    '.vscode/settings.json',
    JSON.stringify({ 'loopLedger.startup.openSession': SESSION }, null, 2) + '\n',
  );
  write(root, '.loop/contracts/sample.json', JSON.stringify(contract, null, 2) + '\n');
  write(root, `.loop/ledgers/${SESSION}.json`, sortedJson(ledger));
  git(root, ['init', '--quiet', '--initial-branch=main']);
  git(root, ['add', '--all']);
  git(root, ['commit', '--quiet', '--message', 'CSV importer and its loop contract']);
  write(root, 'src/importer.js', reviewedImporter); // the uncommitted change to review
  return { root, created: true };
}
