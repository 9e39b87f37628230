// Red team of the sealed read (issue 15), through the real CLI: every scenario runs the same
// commands on two copies of one long ledger — one read through its seal (`status` and `iterate`
// take the fast path), one with a BOM in front (every command takes the full path; the BOM is
// dropped by the first write, so it is put back before each step) — under one fixed clock, and
// asserts byte-identical stdout, stderr, exit codes and files after every step, and that the
// fast copy stays sealed with a summary equal to a fold of its parsed records.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { summarizeRecords } from '../../../src/engine/records-summary';
import type { IterationRecord, Ledger } from '../../../src/engine/types';
import { readLedgerFile, serializeLedger } from '../../../src/store/ledger-file';
import { readSealedLedger } from '../../../src/store/ledger-sealed';
import { DIGEST_MIN_BYTES } from '../../../src/store/records-digest';
import {
  CLI,
  childEnv,
  cliResultOf,
  sampleContract,
  tempRoot,
  writeJson,
  type CliResult,
} from '../helpers/cli';
import { assertNoStack } from './setup';

const SESSION = 's1';
const BOM = Buffer.from([0xef, 0xbb, 0xbf]);
/** Under the 128 KiB a single argv string may hold; three of them pass the 256 KiB seal. */
const BIG_NOTE = 'x'.repeat(100_000);

/** A preload that pins `Date` (the CLI's only clock): two runs then write the same bytes. */
function clockPreload(): string {
  const path = join(tempRoot('loop-ledger-clock-'), 'clock.cjs');
  writeFileSync(
    path,
    `const fixed = Date.parse('2026-01-02T03:04:05Z');
const Real = Date;
class Fixed extends Real { constructor(...a) { if (a.length === 0) super(fixed); else super(...a); } static now() { return fixed; } }
globalThis.Date = Fixed;
`,
  );
  return path;
}

const ledgerAt = (root: string): string => join(root, '.loop', 'ledgers', `${SESSION}.json`);

interface Pair {
  fast: string;
  full: string;
  run(args: string[], expectCode?: number): CliResult;
}

function cliIn(preload: string, root: string, args: string[]): CliResult {
  const r = spawnSync(process.execPath, ['-r', preload, CLI, ...args], {
    env: childEnv(),
    encoding: 'utf8',
    maxBuffer: 256 * 1024 * 1024,
  });
  const result = cliResultOf(r);
  // paths differ between the two roots; nothing else may
  return {
    ...result,
    stdout: result.stdout.split(root).join('<root>'),
    stderr: result.stderr.split(root).join('<root>'),
  };
}

/**
 * The fast copy is sealed exactly when its records reach DIGEST_MIN_BYTES, is then read through
 * its seal, and its summary is the fold of its parsed records.
 */
function assertSealedAndTrue(root: string): void {
  const full = readLedgerFile(ledgerAt(root));
  if (full.kind !== 'ok') throw new Error(`fast copy unreadable in full: ${JSON.stringify(full)}`);
  const records = full.ledger.iterations;
  const recordBytes =
    records.reduce((sum, r) => sum + Buffer.byteLength(JSON.stringify(r)), 0) + (records.length - 1) * 6;
  const sealed = readSealedLedger(ledgerAt(root), SESSION);
  if (recordBytes < DIGEST_MIN_BYTES) {
    assert.equal(sealed, null, `records of ${recordBytes} bytes carry no seal`);
    assert.ok(!full.text.includes('"records_sha256"'));
    return;
  }
  assert.ok(sealed, `the fast copy (records of ${recordBytes} bytes) is read through its seal`);
  assert.equal(JSON.stringify(sealed.summary), JSON.stringify(summarizeRecords(records)));
}

/**
 * Two roots holding the same sealed ledger, opened with `contract` and `openArgs` and grown past
 * the seal's threshold by three iterates through the CLI (`grow` adds flags to each).
 */
function sealedPair(
  contract: Record<string, unknown>,
  openArgs: string[] = [],
  grow: (i: number) => string[] = () => [],
  reshape?: (ledger: Ledger) => void,
  edit?: (text: string) => string,
): Pair {
  const preload = clockPreload();
  const fast = tempRoot('loop-ledger-fast-');
  const full = tempRoot('loop-ledger-full-');
  for (const root of [fast, full]) writeJson(join(root, 'contract.json'), contract);
  const setup = (args: string[]): void => {
    const r = cliIn(preload, fast, [...args, '--root', fast, '--session', SESSION]);
    assert.equal(r.code, 0, `setup ${args[0]}: ${r.stderr}`);
  };
  setup(['open', '--contract', join(fast, 'contract.json'), ...openArgs]);
  for (let i = 0; i < 3; i += 1) setup(['iterate', '--outcome', 'continue', '--note', BIG_NOTE, ...grow(i)]);
  if (reshape !== undefined) {
    // records of a size or number the CLI cannot type in, written as the store writes them
    const read = readLedgerFile(ledgerAt(fast));
    if (read.kind !== 'ok') throw new Error(`setup: ${JSON.stringify(read)}`);
    reshape(read.ledger);
    writeFileSync(ledgerAt(fast), serializeLedger(read.ledger));
  }
  if (edit !== undefined) {
    const text = readFileSync(ledgerAt(fast), 'utf8');
    const edited = edit(text);
    assert.notEqual(edited, text, 'the edit changes the file');
    writeFileSync(ledgerAt(fast), edited);
  }
  mkdirSync(join(full, '.loop', 'ledgers'), { recursive: true });
  copyFileSync(ledgerAt(fast), ledgerAt(full));
  if (edit === undefined) assertSealedAndTrue(fast);
  const run = (args: string[], expectCode?: number): CliResult => {
    // the full copy carries a BOM into every step: never read through its seal
    if (existsSync(ledgerAt(full))) {
      const bytes = readFileSync(ledgerAt(full));
      if (!bytes.subarray(0, 3).equals(BOM)) writeFileSync(ledgerAt(full), Buffer.concat([BOM, bytes]));
      assert.equal(readSealedLedger(ledgerAt(full), SESSION), null);
    }
    const a = cliIn(preload, fast, [...args, '--root', fast, '--session', SESSION]);
    const b = cliIn(preload, full, [...args, '--root', full, '--session', SESSION]);
    const what = args.join(' ').slice(0, 120);
    assertNoStack(a.stderr);
    assert.equal(
      a.code,
      b.code,
      `${what}: exit ${a.code} through the seal, ${b.code} in full\n${a.stderr}\n${b.stderr}`,
    );
    assert.equal(a.stdout, b.stdout, `${what}: stdout`);
    assert.equal(a.stderr, b.stderr, `${what}: stderr`);
    if (expectCode !== undefined) assert.equal(a.code, expectCode, `${what}: ${a.stderr}`);
    const fastBytes = readFileSync(ledgerAt(fast));
    let fullBytes = readFileSync(ledgerAt(full));
    if (fullBytes.subarray(0, 3).equals(BOM)) fullBytes = fullBytes.subarray(3);
    assert.ok(fastBytes.equals(fullBytes), `${what}: the two files differ`);
    assertSealedAndTrue(fast);
    return a;
  };
  return { fast, full, run };
}

const bigLimit = (overrides: Record<string, unknown> = {}): Record<string, unknown> =>
  sampleContract({ iteration_limit: 1000, ...overrides });

describe('cli: the sealed read agrees with the full read, step by step (red team)', function () {
  this.timeout(300_000);

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
    p.run(['open', '--contract', 'IGNORED']);
    p.run(['open', '--contract', join('..', 'contract.json')]);
    p.run(['status', '--json']);
    for (let i = 0; i < 4; i += 1)
      p.run(['iterate', '--outcome', 'continue', '--error', 'E', '--state', `S${i}`, '--json']);
    p.run(['status', '--json']);
    p.run(['resume', '--json']);
    p.run(['iterate', '--outcome', 'continue', '--state', 'S', '--json']);
    p.run(['iterate', '--outcome', 'continue', '--state', 'S', '--json']);
    p.run(['status', '--json']);
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
    p.run(['list', '--json']);
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
});
