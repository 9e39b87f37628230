// Two copies of one long ledger driven through the real CLI side by side (test/unit/cli/
// sealed-differential.test.ts): one read through its seal (`status` and `iterate` take the fast
// path), one with a BOM in front (every command takes the full path; the BOM is dropped by the
// first write, so it is put back before each step), under one fixed clock. Every step asserts
// byte-identical stdout, stderr, exit codes and files, and that the fast copy is sealed exactly
// when its records reach the threshold, with a summary equal to a fold of its parsed records.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { summarizeRecords } from '../../../src/engine/records-summary';
import type { Ledger } from '../../../src/engine/types';
import { readLedgerFile, serializeLedger } from '../../../src/store/ledger-file';
import { readSealedLedger } from '../../../src/store/ledger-sealed';
import { DIGEST_MIN_BYTES } from '../../../src/store/records-digest';
import { CLI, childEnv, cliResultOf, tempRoot, writeJson, type CliResult } from '../helpers/cli';
import { assertNoStack } from './setup';

export const SESSION = 's1';
const BOM = Buffer.from([0xef, 0xbb, 0xbf]);
/** Under the 128 KiB a single argv string may hold; three of them pass the 256 KiB seal. */
const BIG_NOTE = 'x'.repeat(100_000);

/** Every folder the pairs made: a 100,000-record pair leaves ~90 MB behind otherwise. */
const made: string[] = [];
const madeRoot = (prefix: string): string => {
  const root = tempRoot(prefix);
  made.push(root);
  return root;
};

/** Removes the folders of every pair made so far (an afterEach of the suites using them). */
export function removePairRoots(): void {
  for (const root of made.splice(0)) rmSync(root, { recursive: true, force: true });
}

/**
 * A preload that pins `Date` (the CLI's only clock): two runs then write the same bytes. Its
 * folder goes with removePairRoots.
 */
export function clockPreload(): string {
  const path = join(madeRoot('loop-ledger-clock-'), 'clock.cjs');
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

export const ledgerAt = (root: string): string => join(root, '.loop', 'ledgers', `${SESSION}.json`);

export interface Pair {
  fast: string;
  full: string;
  run(args: string[], expectCode?: number): CliResult;
}

function cliIn(preload: string, root: string, args: string[]): CliResult {
  // `<root>` in an argument is each copy's own root
  const rooted = args.map((arg) => arg.split('<root>').join(root));
  const r = spawnSync(process.execPath, ['-r', preload, CLI, ...rooted], {
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
export function sealedPair(
  /** A work-loop contract, or the text of a loop-engineering contract (`open --engineering`). */
  contract: Record<string, unknown> | string,
  openArgs: string[] = [],
  grow: (i: number) => string[] = () => [],
  reshape?: (ledger: Ledger) => void,
  edit?: (text: string) => string,
): Pair {
  const preload = clockPreload();
  const fast = madeRoot('loop-ledger-fast-');
  const full = madeRoot('loop-ledger-full-');
  const contractFile = typeof contract === 'string' ? 'c.loop.md' : 'contract.json';
  for (const root of [fast, full]) {
    if (typeof contract === 'string') writeFileSync(join(root, contractFile), contract);
    else writeJson(join(root, contractFile), contract);
  }
  const setup = (args: string[]): void => {
    const r = cliIn(preload, fast, [...args, '--root', fast, '--session', SESSION]);
    assert.equal(r.code, 0, `setup ${args[0]}: ${r.stderr}`);
  };
  setup([
    'open',
    typeof contract === 'string' ? '--engineering' : '--contract',
    join(fast, contractFile),
    ...openArgs,
  ]);
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
