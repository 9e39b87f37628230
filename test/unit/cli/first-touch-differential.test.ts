// Red team of the first touch, through the real CLI: a long ledger the original engine wrote
// (first-touch-cases.ts crafts ~60, each attacking one thing) is read by `status` and `iterate`
// record by record — with the WebAssembly pass (the default), with its JavaScript stand-in
// (LOOP_LEDGER_BENCH_PLAIN=keys-wasm) — and by the full read (LOOP_LEDGER_BENCH_PLAIN=sliced),
// each on its own copy of the file under one fixed clock. Every step must exit, print and
// write byte for byte the same three ways: a difference is a ledger read or rewritten otherwise
// than the full read reads it. The cases the pass must take are checked to take it (else the
// comparison would prove nothing); files with bytes outside ASCII must not take it.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { readLedgerPreferSealed, readLedgerSummarised } from '../../../src/store/ledger-sealed';
import { CLI, childEnv, cliResultOf, tempRoot, type CliResult } from '../helpers/cli';
import { firstTouchCases } from './first-touch-cases';
import { clockPreload, removePairRoots } from './sealed-pair';
import { assertNoStack } from './setup';

/** The three readers: the pass, its JavaScript stand-in, the full read (the reference, last). */
const MODES = ['', 'keys-wasm', 'sliced'] as const;

function cliAsync(preload: string, root: string, args: string[], plain: string): Promise<CliResult> {
  return new Promise((resolve, reject) => {
    const env = childEnv(plain === '' ? {} : { LOOP_LEDGER_BENCH_PLAIN: plain });
    if (plain === '') delete env.LOOP_LEDGER_BENCH_PLAIN;
    const child = spawn(process.execPath, ['-r', preload, CLI, ...args, '--root', root, '--session', 's1'], {
      env,
    });
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    child.stdout.on('data', (d: Buffer) => out.push(d));
    child.stderr.on('data', (d: Buffer) => err.push(d));
    child.on('error', reject);
    child.on('close', (status) => {
      // paths differ between the roots; nothing else may
      const text = (parts: Buffer[]): string =>
        Buffer.concat(parts).toString('utf8').split(root).join('<root>');
      resolve(cliResultOf({ status, stdout: text(out), stderr: text(err) }));
    });
  });
}

describe('cli: the first touch of an original ledger agrees with the full read, three ways (red team)', function () {
  this.timeout(600_000);
  let preload: string;
  let work: string;
  before(() => {
    preload = clockPreload();
    work = tempRoot('loop-ledger-first-touch-');
  });
  after(() => {
    removePairRoots();
    rmSync(work, { recursive: true, force: true });
  });

  for (const c of firstTouchCases()) {
    it(`${c.valid ? 'read' : 'refused'}: ${c.name}`, async () => {
      const roots = MODES.map((mode) => join(work, mode || 'pass'));
      const ledgers = roots.map((root) => join(root, '.loop', 'ledgers', 's1.json'));
      for (const path of ledgers) {
        mkdirSync(join(path, '..'), { recursive: true });
        writeFileSync(path, c.bytes);
      }
      // Which reader takes the file: the pass must take what it is there for, never a refused file.
      const iterateSliced = readLedgerPreferSealed(ledgers[0] as string, 's1').sealed !== undefined;
      const statusSliced = readLedgerSummarised(ledgers[0] as string, 's1').summarised !== undefined;
      if (!c.valid)
        assert.equal(iterateSliced || statusSliced, false, 'a refused file read record by record');
      if (c.sliced !== undefined) {
        assert.equal(iterateSliced, c.sliced, 'iterate reads it record by record');
        assert.equal(statusSliced, c.sliced, 'status reads it record by record');
      }
      // `status` without --json answers from the same read (its wording is the full read's
      // tests' to check), so the human status is left out: each run here costs a node start.
      const steps = [
        ['status', '--json'],
        ['iterate', '--outcome', 'continue', '--action', 'first-touch', '--error', 'boom 1', '--json'],
      ];
      for (const args of steps) {
        const results = await Promise.all(
          MODES.map((mode, i) => cliAsync(preload, roots[i] as string, args, mode)),
        );
        const reference = results[2] as CliResult;
        const what = `${args.join(' ')}`;
        results.forEach((r, i) => {
          const mode = MODES[i] || 'the pass';
          assertNoStack(r.stderr);
          assert.equal(r.code, reference.code, `${what} (${mode}): exit\n${r.stderr}\n${reference.stderr}`);
          assert.equal(r.stdout, reference.stdout, `${what} (${mode}): stdout`);
          assert.equal(r.stderr, reference.stderr, `${what} (${mode}): stderr`);
          assert.ok(
            readFileSync(ledgers[i] as string).equals(readFileSync(ledgers[2] as string)),
            `${what} (${mode}): the files differ`,
          );
        });
        if (c.valid) assert.equal(reference.code, 0, `${what}: ${reference.stderr}`);
        else assert.notEqual(reference.code, 0, `${what}: a refused file was read`);
        if (args[1] === '--json' && reference.code === 0) assert.notEqual(reference.json, undefined);
        if (args[0] === 'status')
          assert.ok(readFileSync(ledgers[2] as string).equals(c.bytes), 'status does not write');
      }
      if (c.valid) assert.ok(!readFileSync(ledgers[2] as string).equals(c.bytes), 'iterate wrote');
    });
  }
});
