// Hand-edited ledgers through the real CLI: every malformed variant is
// "corrupt" — exit 2, one line naming the file and the JSON path of the first bad field — on
// every command, and the file is left byte for byte as it was. Ledgers that are merely laid out
// differently (a record over two lines) stay readable, and the next write is valid JSON.
import assert from 'node:assert/strict';
import { readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { readSessionsAsync } from '../../../src/extension/sessions/sessionEntry';
import {
  ledgerPath,
  readLedger,
  runCli,
  runCliAsync,
  sampleContract,
  tempRoot,
  writeJson,
  writeText,
  type CliResult,
} from '../helpers/cli';

type Json = any; // eslint-disable-line @typescript-eslint/no-explicit-any

/** [what, mutation of the parsed ledger or of its text, the JSON path the message must name]. */
type Variant = [string, ((ledger: Json) => void) | { text: (text: string) => string }, string];

const rec = (i: number) => `iterations[${i}]`;
const VARIANTS: Variant[] = [
  ['completed_actions as a string', (l) => (l.completed_actions = 'abc'), 'completed_actions'],
  ['completed_actions null', (l) => (l.completed_actions = null), 'completed_actions'],
  ['completed_actions holding a number', (l) => (l.completed_actions = [1]), 'completed_actions[0]'],
  ['completed_actions missing', (l) => delete l.completed_actions, 'completed_actions'],
  ['iterations as an object', (l) => (l.iterations = {}), 'iterations'],
  ['a record that is a number', (l) => (l.iterations[0] = 1), rec(0)],
  ['a record that is null', (l) => (l.iterations[1] = null), rec(1)],
  ['n as a string', (l) => (l.iterations[0].n = '1'), `${rec(0)}.n`],
  ['n out of order', (l) => (l.iterations[1].n = 1), `${rec(1)}.n`],
  ['n with a gap', (l) => (l.iterations[1].n = 3), `${rec(1)}.n`],
  ['n fractional', (l) => (l.iterations[0].n = 1.5), `${rec(0)}.n`],
  ['an unknown outcome word', (l) => (l.iterations[0].outcome = 'done'), `${rec(0)}.outcome`],
  ['a record without outcome', (l) => delete l.iterations[1].outcome, `${rec(1)}.outcome`],
  ['actions as a string', (l) => (l.iterations[0].actions = 'a1'), `${rec(0)}.actions`],
  ['actions holding null', (l) => (l.iterations[0].actions = [null]), `${rec(0)}.actions[0]`],
  [
    'a measurement as a string',
    (l) => (l.iterations[1].measurements['hard-one'] = '1'),
    `${rec(1)}.measurements["hard-one"]`,
  ],
  ['evaluation as a number', (l) => (l.iterations[1].evaluation = 5), `${rec(1)}.evaluation`],
  [
    'evaluation without dimensions',
    (l) => delete l.iterations[1].evaluation.dimensions,
    `${rec(1)}.evaluation.dimensions`,
  ],
  [
    'a dimension score as a string',
    (l) => (l.iterations[1].evaluation.dimensions[0].score = 'x'),
    `${rec(1)}.evaluation.dimensions[0].score`,
  ],
  ['a stall that is a number', (l) => (l.iterations[0].stall = 4), `${rec(0)}.stall`],
  ['an unknown critic verdict', (l) => (l.iterations[0].critic_verdict = 'ok'), `${rec(0)}.critic_verdict`],
  ['a decision that is a number', (l) => (l.iterations[0].decision = 1), `${rec(0)}.decision`],
  ['a record epoch of 0', (l) => (l.iterations[0].epoch = 0), `${rec(0)}.epoch`],
  ['files_changed null', (l) => (l.iterations[0].files_changed = null), `${rec(0)}.files_changed`],
  ['a numeric timestamp', (l) => (l.iterations[0].timestamp = 5), `${rec(0)}.timestamp`],
  ['session as a number', (l) => (l.session = 5), 'session'],
  ['session naming another file', (l) => (l.session = 'other'), 'session'],
  ['an unknown status', (l) => (l.status = 'done'), 'status'],
  ['status missing', (l) => delete l.status, 'status'],
  ['contract null', (l) => (l.contract = null), 'contract'],
  ['contract as a list', (l) => (l.contract = []), 'contract'],
  ['iteration_limit as a string', (l) => (l.contract.iteration_limit = '5'), 'contract.iteration_limit'],
  ['quality_rubric as an object', (l) => (l.contract.quality_rubric = {}), 'contract.quality_rubric'],
  [
    'a rubric baseline as a string',
    (l) => (l.contract.quality_rubric[0].baseline = '10'),
    'contract.quality_rubric[0].baseline',
  ],
  [
    'an unknown direction',
    (l) => (l.contract.quality_rubric[0].direction = 'up'),
    'contract.quality_rubric[0].direction',
  ],
  [
    'hard_gate as a string',
    (l) => (l.contract.quality_rubric[0].hard_gate = 'yes'),
    'contract.quality_rubric[0].hard_gate',
  ],
  ['epoch null', (l) => (l.epoch = null), 'epoch'],
  ['epochs as an object', (l) => (l.epochs = {}), 'epochs'],
  ['an epoch entry without contract', (l) => (l.epochs = [{ n: 1, iterations: [] }]), 'epochs[0].contract'],
  ['resumed negative', (l) => (l.resumed = -1), 'resumed'],
  ['stall_threshold 0', (l) => (l.stall_threshold = 0), 'stall_threshold'],
  ['pending_brief as a string', (l) => (l.pending_brief = 'abc'), 'pending_brief'],
  ['pending_brief without brief_id', (l) => (l.pending_brief = {}), 'pending_brief.brief_id'],
  [
    'an unknown provenance',
    (l) => (l.baseline_provenance = { 'hard-one': 'guessed' }),
    'baseline_provenance["hard-one"]',
  ],
  ['an unknown final outcome', (l) => (l.final_outcome = 'finished'), 'final_outcome'],
  ['close_note as a number', (l) => (l.close_note = 5), 'close_note'],
  [
    'a duplicate top-level "iterations" key (forged records first)',
    { text: (t) => t.replace('{\n', '{\n  "iterations": [],\n') },
    '"iterations" twice at the top level',
  ],
  [
    'a duplicate key inside a record',
    { text: (t) => t.replace('{"actions":["a1"]', '{"outcome":"complete","actions":["a1"]') },
    `"outcome" twice in ${rec(0)}`,
  ],
];

const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** Runs `jobs` at most `width` at a time (2 cores are shared: a few children at once). */
async function pool<T>(jobs: (() => Promise<T>)[], width: number): Promise<T[]> {
  const results: T[] = new Array(jobs.length);
  let next = 0;
  await Promise.all(
    Array.from({ length: width }, async () => {
      while (next < jobs.length) {
        const index = next++;
        results[index] = await (jobs[index] as () => Promise<T>)();
      }
    }),
  );
  return results;
}

describe('reliability: malformed ledgers', function () {
  this.timeout(600_000);
  let root: string;
  let contract: string;
  let diff: string;
  let verification: string;
  let valid: Json;

  before(() => {
    root = tempRoot('loop-ledger-malformed-');
    contract = writeJson(join(root, 'in', 'contract.json'), sampleContract({ iteration_limit: 100 }));
    diff = writeText(
      join(root, 'in', 'd.diff'),
      'diff --git a/x b/x\n--- a/x\n+++ b/x\n@@ -1 +1 @@\n-a\n+b\n',
    );
    verification = writeText(join(root, 'in', 'v.txt'), 'ok\n');
    const common = ['--root', root, '--session', 'base'];
    assert.equal(runCli(['open', ...common, '--contract', contract]).code, 0);
    assert.equal(runCli(['iterate', ...common, '--outcome', 'continue', '--action', 'a1']).code, 0);
    const measured = runCli([
      'iterate',
      ...common,
      '--outcome',
      'continue',
      '--measure',
      'hard-one=5',
      '--measure',
      'soft-one=60',
    ]);
    assert.equal(measured.code, 0, measured.stderr);
    valid = readLedger(root, 'base');
    assert.notEqual(valid.iterations[1].evaluation, null);
  });
  after(() => rmSync(root, { recursive: true, force: true }));

  it(`has at least 36 variants (${VARIANTS.length})`, () => assert.ok(VARIANTS.length >= 36));

  it(`refuses every variant on all 7 commands: exit 2, one line with the file and the JSON path, file untouched`, async () => {
    const files = VARIANTS.map(([, mutate], i) => {
      const session = `v${i}`;
      const ledger = structuredClone({ ...valid, session });
      let text: string;
      if (typeof mutate === 'function') {
        mutate(ledger);
        text = `${JSON.stringify(ledger, null, 2)}\n`;
      } else {
        // Text edits start from the file as the CLI wrote it (one record per line).
        text = mutate.text(
          readFileSync(ledgerPath(root, 'base'), 'utf8').replace(
            '"session": "base"',
            `"session": "${session}"`,
          ),
        );
        assert.notEqual(text, readFileSync(ledgerPath(root, 'base'), 'utf8'));
      }
      writeFileSync(ledgerPath(root, session), text);
      return { session, text };
    });
    const commands = (session: string): string[][] => {
      const common = ['--root', root, '--session', session];
      return [
        ['open', ...common, '--contract', contract],
        ['iterate', ...common, '--outcome', 'continue', '--action', 'x'],
        ['brief', ...common, '--diff-file', diff, '--verification-file', verification],
        ['score', ...common, '--measure', 'hard-one=1', '--measure', 'soft-one=1'],
        ['status', ...common],
        ['resume', ...common],
        ['close', ...common, '--outcome', 'stop'],
      ];
    };
    const jobs = VARIANTS.flatMap(([what, , path], i) =>
      commands(`v${i}`).map((args) => async () => ({
        what,
        path,
        args,
        session: `v${i}`,
        result: await runCliAsync(args),
      })),
    );
    assert.ok(jobs.length >= 36 * 7);
    const results = await pool(jobs, 4);
    const failures: string[] = [];
    for (const { what, path, args, session, result } of results) {
      const problem = refusalProblem(result, session, path);
      if (problem !== null) failures.push(`${what} / ${args[0]}: ${problem}`);
    }
    assert.deepEqual(
      failures,
      [],
      `${failures.length} of ${results.length} runs:\n${failures.slice(0, 30).join('\n')}`,
    );
    for (const { session, text } of files)
      assert.equal(readFileSync(ledgerPath(root, session), 'utf8'), text, session);
    const strays = readdirSync(join(root, '.loop', 'ledgers')).filter((name) => !name.endsWith('.json'));
    assert.deepEqual(strays, []);
  });

  function refusalProblem(result: CliResult, session: string, path: string): string | null {
    if (result.code !== 2) return `exit ${result.code}: ${result.stderr.slice(0, 300)}`;
    if (result.stdout !== '') return `printed on stdout: ${result.stdout.slice(0, 200)}`;
    const lines = result.stderr.trimEnd().split('\n');
    if (lines.length !== 1) return `${lines.length} stderr lines: ${result.stderr.slice(0, 300)}`;
    const pattern = new RegExp(`${escape(session)}\\.json: ledger .*(at ${escape(path)}:|${escape(path)})`);
    if (!pattern.test(lines[0] as string)) return `does not name ${path}: ${lines[0]}`;
    if (/TypeError|is not a function|is not iterable|reading '/.test(result.stderr))
      return `a JS error: ${lines[0]}`;
    return null;
  }

  it('the extension reads the same variants as broken sessions naming the path (its error node)', async () => {
    const entries = new Map((await readSessionsAsync(root)).map(({ entry }) => [entry.session, entry]));
    VARIANTS.forEach(([what, , path], i) => {
      const entry = entries.get(`v${i}`);
      assert.equal(entry?.kind, 'broken', what);
      assert.ok(
        entry?.kind === 'broken' && entry.problem.includes(path),
        `${what}: ${JSON.stringify(entry)}`,
      );
    });
    assert.equal(entries.get('base')?.kind, 'ledger');
  });

  describe("layouts that are not the writer's own stay readable, and the next write is valid", () => {
    const session = 'edited';
    /** The CLI's own file, with records re-laid out by hand: same data, other lines. */
    function handEdited(layout: (records: Json[]) => string): Json {
      const ledger = structuredClone({ ...valid, session });
      const text = readFileSync(ledgerPath(root, 'base'), 'utf8').replace(
        '"session": "base"',
        `"session": "${session}"`,
      );
      const start = text.indexOf('"iterations": [') + '"iterations": ['.length;
      const end = text.indexOf('\n  ]', start);
      writeFileSync(
        ledgerPath(root, session),
        `${text.slice(0, start)}${layout(ledger.iterations)}${text.slice(end + 4)}`,
      );
      return ledger;
    }

    const layouts: [string, (records: Json[]) => string][] = [
      // Two records on two lines, but not one per line: record 1 runs over three lines, the
      // third opening with "  ]", and record 2 shares that line.
      [
        'a record over three lines, one of them starting with "  ]"',
        (r) =>
          `\n    ${JSON.stringify(r[0])
            .replace(',"blocker"', ',\n    "blocker"')
            .replace('"commands_run":[]', '"commands_run":[\n  ]')},${JSON.stringify(r[1])}\n  ]`,
      ],
      [
        'records indented like the original engine',
        (r) => `\n${r.map((x) => JSON.stringify(x, null, 2)).join(',\n')}\n  ]`,
      ],
      ['all records on one line', (r) => `${r.map((x) => JSON.stringify(x)).join(', ')}]`],
    ];
    for (const [what, layout] of layouts) {
      it(`${what}: iterate exits 0, the file parses, every record is kept and the new one appended`, () => {
        const before = handEdited(layout);
        assert.doesNotThrow(() => JSON.parse(readFileSync(ledgerPath(root, session), 'utf8')));
        const run = runCli([
          'iterate',
          '--root',
          root,
          '--session',
          session,
          '--outcome',
          'continue',
          '--action',
          'next',
        ]);
        assert.equal(run.code, 0, run.stderr);
        const after = readLedger(root, session);
        assert.deepEqual(after.iterations.slice(0, 2), before.iterations);
        assert.equal(after.iterations.length, 3);
        assert.equal(runCli(['status', '--root', root, '--session', session]).code, 0);
        rmSync(ledgerPath(root, session));
      });
    }

    it('keys other parts add (top level and in records) survive a rewrite with their values', () => {
      const ledger = structuredClone({ ...valid, session });
      ledger.repeat = { rounds: [1, 2], settled: false };
      ledger.harness = 'x';
      ledger.iterations[0].no_op = true;
      ledger.iterations[1].spent = { tokens: 12.5 };
      writeFileSync(ledgerPath(root, session), `${JSON.stringify(ledger, null, 2)}\n`);
      const run = runCli(['iterate', '--root', root, '--session', session, '--outcome', 'continue']);
      assert.equal(run.code, 0, run.stderr);
      const after = readLedger(root, session);
      assert.deepEqual(after.repeat, ledger.repeat);
      assert.equal(after.harness, 'x');
      assert.deepEqual(after.iterations.slice(0, 2), ledger.iterations);
      rmSync(ledgerPath(root, session));
    });
  });
});
