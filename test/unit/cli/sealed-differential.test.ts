// Red team of the sealed read, through the real CLI: every scenario runs the same
// commands on a long ledger read through its seal and on a copy read in full (sealed-pair.ts),
// and every step must answer and write the same bytes on both.
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { IterationRecord, Ledger } from '../../../src/engine/types';
import { readLedgerFile } from '../../../src/store/ledger-file';
import { readSealedLedger } from '../../../src/store/ledger-sealed';
import { readLedgerFileAsync } from '../../../src/store/read-async';
import { DIGEST_MIN_BYTES } from '../../../src/store/records-digest';
import { runCli, sampleContract } from '../helpers/cli';
import { contractText } from '../engineering/helpers';
import { ledgerAt, removePairRoots, sealedPair, SESSION } from './sealed-pair';

const bigLimit = (overrides: Record<string, unknown> = {}): Record<string, unknown> =>
  sampleContract({ iteration_limit: 1000, ...overrides });

describe('cli: the sealed read agrees with the full read, step by step (red team)', function () {
  this.timeout(300_000);
  afterEach(removePairRoots);

  it('status, repeated actions (exit 5), repeated errors and circular states', () => {
    const p = sealedPair(bigLimit());
    p.run(['status', '--json'], 0);
    p.run(['status'], 0);
    p.run(['iterate', '--outcome', 'continue', '--action', 'a1', '--json'], 0);
    p.run(['iterate', '--outcome', 'continue', '--action', 'a1'], 5);
    for (let i = 0; i < 3; i += 1) p.run(['iterate', '--outcome', 'continue', '--error', 'boom at line 12']);
    p.run(['status', '--json']);
    p.run(['iterate', '--outcome', 'continue'], 3);
  });

  it('a closed ledger: iterate refused, re-opened as a new epoch, stalls counted per epoch', () => {
    const p = sealedPair(bigLimit(), ['--stall-threshold', '10'], (i) => [
      '--error',
      'E',
      '--state',
      `S${i}`,
    ]);
    p.run(['close', '--outcome', 'stop']);
    p.run(['iterate', '--outcome', 'continue'], 3);
    p.run(['status', '--json'], 0);
    p.run(['open', '--contract', '<root>/missing.json'], 2);
    p.run(['open', '--contract', '<root>/contract.json'], 0);
    p.run(['status', '--json']);
    // the epoch-1 errors do not count: the third E of epoch 2 is the stall
    for (let i = 0; i < 3; i += 1)
      p.run(['iterate', '--outcome', 'continue', '--error', 'E', '--state', `S${i}`, '--json'], 0);
    p.run(['iterate', '--outcome', 'continue', '--json'], 3);
    p.run(['status', '--json'], 0);
    p.run(['open', '--contract', '<root>/contract.json'], 0);
    p.run(['iterate', '--outcome', 'pause', '--json'], 0);
    p.run(['resume', '--json'], 0);
    p.run(['iterate', '--outcome', 'continue', '--state', 'S0', '--json'], 0);
    p.run(['iterate', '--outcome', 'continue', '--state', 'S0', '--json'], 0);
    p.run(['iterate', '--outcome', 'continue', '--json'], 3);
    p.run(['status', '--json'], 0);
  });

  it('measurements against baselines, score, and the iteration limit', () => {
    const p = sealedPair(sampleContract({ iteration_limit: 6 }), [], () => [
      '--measure',
      'hard-one=4',
      '--measure',
      'soft-one=60',
    ]);
    p.run(['status', '--json'], 0);
    p.run([
      'iterate',
      '--outcome',
      'continue',
      '--measure',
      'hard-one=3',
      '--measure',
      'soft-one=70',
      '--json',
    ]);
    p.run(['score', '--measure', 'hard-one=2', '--measure', 'soft-one=90', '--json']);
    p.run([
      'iterate',
      '--outcome',
      'continue',
      '--measure',
      'hard-one=5',
      '--measure',
      'soft-one=1.5',
      '--json',
    ]);
    p.run(['status', '--json']);
    p.run(['iterate', '--outcome', 'continue', '--json']);
    p.run(['iterate', '--outcome', 'continue', '--json']);
    p.run(['status', '--json']);
  });

  /** Sets the last record's note so the records take exactly `bytes` bytes. */
  const recordsOf =
    (bytes: number) =>
    (ledger: Ledger): void => {
      const last = ledger.iterations[ledger.iterations.length - 1] as IterationRecord;
      last.note = '';
      const size = (): number =>
        ledger.iterations.reduce((sum, r) => sum + Buffer.byteLength(JSON.stringify(r)), 0) +
        (ledger.iterations.length - 1) * 6;
      last.note = 'n'.repeat(bytes - size());
      assert.equal(size(), bytes);
    };

  for (const [name, bytes, sealedBefore] of [
    ['255 KiB', 255 * 1024, false],
    ['one byte under 256 KiB', DIGEST_MIN_BYTES - 1, false],
    ['exactly 256 KiB', DIGEST_MIN_BYTES, true],
    ['257 KiB', 257 * 1024, true],
  ] as const) {
    it(`records of ${name}: the seal starts where the rule says, and both paths agree across it`, () => {
      const p = sealedPair(bigLimit(), [], () => [], recordsOf(bytes));
      assert.equal(readSealedLedger(ledgerAt(p.fast), SESSION) !== null, sealedBefore);
      p.run(['status', '--json'], 0);
      p.run(['iterate', '--outcome', 'continue', '--action', 'x', '--json'], 0);
      // run() checks after every step that the copy is sealed exactly when its records reach the threshold
      p.run(['iterate', '--outcome', 'continue', '--error', 'e', '--json'], 0);
      p.run(['status', '--json'], 0);
    });
  }

  it('a single 2 MiB record', () => {
    const p = sealedPair(
      bigLimit(),
      [],
      () => [],
      (ledger) => {
        const first = ledger.iterations[0] as IterationRecord;
        ledger.iterations = [{ ...first, note: 'é'.repeat(1024 * 1024) }];
      },
    );
    p.run(['status', '--json'], 0);
    p.run(['iterate', '--outcome', 'continue', '--json'], 0);
    p.run(['status', '--json'], 0);
  });

  it('100,000 records', () => {
    const p = sealedPair(
      bigLimit({ iteration_limit: 200_000 }),
      [],
      () => [],
      (ledger) => {
        const first = ledger.iterations[0] as IterationRecord;
        ledger.iterations = Array.from({ length: 100_000 }, (_, i) => ({
          ...first,
          n: i + 1,
          note: null,
          error_signature: i % 3 === 0 ? `sig${i % 7}` : null,
          state_hash: `st${i}`,
        }));
      },
    );
    p.run(['status', '--json'], 0);
    p.run(['iterate', '--outcome', 'continue', '--state', 'fresh', '--json'], 0);
    p.run(['status', '--json'], 0);
  });

  // A hand edit of the header that keeps the layout keeps the seal (the header is not under it):
  // both paths must read the edited header the same way.
  for (const [name, change, code] of [
    ['status closed', (l: Ledger) => void (l.status = 'closed'), 3],
    ['an action already complete', (l: Ledger) => void l.completed_actions.push('x'), 5],
    ['epoch 7 with no records', (l: Ledger) => void (l.epoch = 7), 0],
    ['stall threshold 1', (l: Ledger) => void (l.stall_threshold = 1), 0],
    ['iteration limit reached', (l: Ledger) => void (l.contract.iteration_limit = 3), 0],
    ['a pending brief', (l: Ledger) => void (l.pending_brief = { brief_id: 'b-1' }), 0],
    ['an unknown key', (l: Ledger) => void ((l as unknown as Record<string, unknown>).zz_extra = [{}]), 0],
  ] as const) {
    it(`a header edited by hand, layout kept (${name}): both paths agree`, () => {
      const p = sealedPair(bigLimit(), [], () => [], change);
      p.run(['status', '--json'], 0);
      p.run(['iterate', '--outcome', 'continue', '--action', 'x', '--error', 'e', '--json'], code);
      p.run(['status', '--json'], 0);
      p.run(['iterate', '--outcome', 'continue', '--error', 'e', '--json']);
    });
  }

  // Edits that change the layout send `status` and `iterate` to the full path; the answer is the
  // pristine file's, and the first write lays the file out (and seals it) again.
  for (const [name, edit] of [
    ['CRLF line ends', (t: string) => t.split('\n').join('\r\n')],
    [
      'keys reordered',
      (t: string) => t.replace('"epoch": 1,\n  "epochs": [],', '"epochs": [],\n  "epoch": 1,'),
    ],
    ['extra whitespace', (t: string) => t.replace('"epoch": 1,', '"epoch":  1,')],
    [
      'a summary number written 3.0',
      (t: string) => t.replace(/"records_summary": \{"count":3,/, '"records_summary": {"count":3.0,'),
    ],
    ['no final newline', (t: string) => t.slice(0, -1)],
    ['trailing blanks', (t: string) => `${t}  \n`],
  ] as const) {
    it(`a layout edited by hand (${name}): read in full, same answers`, () => {
      const p = sealedPair(bigLimit(), [], () => [], undefined, edit);
      assert.equal(readSealedLedger(ledgerAt(p.fast), SESSION), null, 'not read through the seal');
      const r = p.run(['iterate', '--outcome', 'continue', '--json'], 0);
      assert.equal(r.json.n, 4);
      p.run(['status', '--json'], 0);
    });
  }

  it('a loop-engineering ledger: --spent totals, the budget cap, NO_OP, termination', () => {
    const p = sealedPair(
      contractText({
        'max iterations': '12.',
        budget: '40 tool calls.',
        'no-op': 'gh pr list --label ready | wc -l',
        'no-op output limit': '1',
      }),
      [],
      (i) => ['--spent', `calls=${i + 1}`, '--spent', 'tokens=100'],
    );
    p.run(['status', '--json'], 0);
    p.run(['iterate', '--outcome', 'continue', '--spent', 'calls=5', '--json'], 0);
    writeFileSync(join(p.fast, 'q.txt'), '0\n');
    writeFileSync(join(p.full, 'q.txt'), '0\n');
    const quiet = ['--no-op', '--eligible-count', '0', '--output-count', '0', '--side-effects', '0'];
    p.run(['iterate', '--outcome', 'continue', ...quiet, '--evidence-path', 'q.txt', '--json'], 0);
    p.run(['status', '--json'], 0);
    p.run(['iterate', '--outcome', 'continue', '--spent', 'calls=30', '--json'], 0);
    p.run(['status', '--json'], 0);
    p.run(['status'], 0);
    p.run(['iterate', '--outcome', 'continue', '--json'], 3);
  });

  it('a pending brief, spent by a verdict that names it', () => {
    const p = sealedPair(bigLimit());
    const diff =
      'diff --git a/src/parser/a.ts b/src/parser/a.ts\n--- a/src/parser/a.ts\n+++ b/src/parser/a.ts\n@@ -1 +1 @@\n-old\n+new\n';
    for (const root of [p.fast, p.full]) {
      writeFileSync(join(root, 'change.diff'), diff);
      writeFileSync(join(root, 'verify.txt'), 'all tests pass\n');
    }
    const brief = p.run(
      ['brief', '--diff-file', '<root>/change.diff', '--verification-file', '<root>/verify.txt', '--json'],
      0,
    );
    const id = brief.json.brief_id as string;
    p.run(['status', '--json'], 0);
    p.run([
      'iterate',
      '--outcome',
      'continue',
      '--critic-verdict',
      'PASS',
      '--critic-brief',
      'wrong',
      '--evidence-path',
      'verify.txt',
      '--json',
    ]);
    p.run(
      [
        'iterate',
        '--outcome',
        'continue',
        '--critic-verdict',
        'PASS',
        '--critic-brief',
        id,
        '--critic-next',
        'more tests',
        '--evidence-path',
        'verify.txt',
        '--decision',
        'retain',
        '--json',
      ],
      0,
    );
    p.run(['status', '--json'], 0);
    p.run([
      'iterate',
      '--outcome',
      'continue',
      '--critic-verdict',
      'PASS',
      '--critic-brief',
      id,
      '--critic-next',
      'more tests',
      '--evidence-path',
      'verify.txt',
      '--json',
    ]);
    p.run(['status', '--json'], 0);
  });

  it('60 seeded random steps of every iterate flag, status, score, close, open and resume', () => {
    const p = sealedPair(sampleContract({ iteration_limit: 500 }), ['--stall-threshold', '4']);
    for (const root of [p.fast, p.full]) writeFileSync(join(root, 'ev.txt'), 'evidence\n');
    let seed = 15;
    const random = (n: number): number => {
      seed = (seed * 1103515245 + 12345) % 2 ** 31;
      return seed % n;
    };
    const pick = <T>(items: readonly T[]): T => items[random(items.length)] as T;
    const outcomes = [
      'continue',
      'continue',
      'continue',
      'continue',
      'continue',
      'revise',
      'complete',
      'pause',
      'stop',
      'escalate',
    ];
    const iterateStep = (): string[] => {
      const outcome = pick(outcomes);
      const step = ['iterate', '--outcome', outcome, '--json'];
      if (outcome === 'escalate') step.push('--blocker', 'b', '--evidence', 'e', '--recommended-next', 'r');
      if (random(3) === 0) step.push('--action', `a${random(20)}`);
      if (random(3) === 0) step.push('--error', pick(['boom', 'bang 42', 'bang 43']));
      if (random(3) === 0) step.push('--state', `s${random(6)}`);
      if (random(4) === 0)
        step.push('--measure', `hard-one=${random(5)}`, '--measure', `soft-one=${random(100)}.5`);
      if (random(5) === 0) step.push('--dependency-missing', 'registry');
      if (random(5) === 0) step.push('--files-changed', 'src/a.ts', '--command-run', 'npm test');
      if (random(8) === 0)
        step.push('--decision', pick(['retain', 'revert', 'revise']), '--evidence-path', 'ev.txt');
      if (random(6) === 0) step.push('--note', 'ünïcode \u2028 "quoted" ],\n "records_summary"');
      return step;
    };
    const codes: string[] = [];
    let last = '';
    for (let i = 0; i < 60; i += 1) {
      const kind = random(10);
      let step: string[];
      // a closed or paused loop is re-opened or resumed, so most steps are appends
      if (/is closed/.test(last)) step = ['open', '--contract', '<root>/contract.json'];
      else if (/is paused|paused/.test(last)) step = ['resume', '--json'];
      else if (kind === 0) step = ['status', '--json'];
      else if (kind === 1)
        step = [
          'score',
          '--measure',
          `hard-one=${random(5)}`,
          '--measure',
          `soft-one=${random(100)}`,
          '--json',
        ];
      else if (kind === 2) step = ['close', '--outcome', 'stop'];
      else step = iterateStep();
      const r = p.run(step);
      codes.push(`${step[0]}:${r.code}`);
      last = r.code === 0 && step[0] === 'iterate' ? JSON.stringify(r.json?.status ?? '') : r.stderr;
      if (step[0] === 'close' && r.code === 0) last = 'is closed';
      if (step[0] === 'iterate' && r.code === 0 && r.json?.outcome !== 'continue') last = 'is closed';
    }
    // not a run of refusals: most appends land, and some steps are refused
    assert.ok(codes.filter((c) => c === 'iterate:0').length >= 15, codes.join(' '));
    assert.ok(
      codes.some((c) => !c.endsWith(':0')),
      codes.join(' '),
    );
  });

  it('list and the extension’s asynchronous reader read a sealed ledger in full, as the full path does', async () => {
    const p = sealedPair(bigLimit());
    p.run(['iterate', '--outcome', 'continue', '--action', 'a', '--json'], 0);
    const lists = [p.fast, p.full].map((root) => {
      const r = runCli(['list', '--root', root, '--json']);
      assert.equal(r.code, 0, r.stderr);
      return r.stdout.split(root).join('<root>');
    });
    assert.equal(lists[0], lists[1]);
    assert.equal(JSON.parse(lists[0] as string).sessions[0].iterations, 4);
    const sync = readLedgerFile(ledgerAt(p.fast));
    const async = await readLedgerFileAsync(ledgerAt(p.fast));
    assert.equal(sync.kind, 'ok');
    assert.deepEqual(async, sync);
  });
});
