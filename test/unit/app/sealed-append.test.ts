// The fast path and the full path of `status` and `iterate` must be indistinguishable: over random
// sequences of iterate / status / score / close / resume / open on a long ledger, one copy is driven
// through the operations as they are (a sealed ledger: the fast path) and the other has its seal
// stripped before every step (so it is parsed, checked and rewritten in full). After every step
// both must have answered the same outcome and hold byte-identical files — the digest and the
// summary included, since `now` is fixed.
import assert from 'node:assert/strict';
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { openOp } from '../../../src/app/contract/operations';
import { closeOp, iterateOp, resumeOp, scoreOp, statusOp } from '../../../src/app/ledger/operations';
import type { Outcome } from '../../../src/engine/types';
import { readSealedLedger } from '../../../src/store/ledger-sealed';

const SESSION = 'big';
const SEEDED = 420; // records of ~700 bytes: past the seal's 256 KiB
const NOW = new Date('2026-01-02T03:04:05Z');

const contract = {
  purpose: 'Raise parser coverage',
  owner: 'parser team',
  starting_state: 'coverage 61%',
  inputs: ['src/parser'],
  expected_outputs: ['tests'],
  success_criteria: ['coverage >= 80%'],
  failure_criteria: ['a test fails'],
  dependencies: ['node'],
  // A few iterations past the seed: retries-exhausted is reachable within a sequence.
  iteration_limit: SEEDED + 6,
  timeout_behaviour: 'pause',
  escalation_path: 'ask the owner',
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
      evidence_command: 'echo 38',
      baseline: 38,
      target: 30,
      weight: 30,
      failure_threshold: 45,
      direction: 'lower-is-better',
      hard_gate: false,
    },
  ],
};

type Step =
  | {
      kind: 'iterate';
      outcome: Outcome;
      error: string | null;
      state: string | null;
      measure: [number, number] | null;
      decision: string | null;
      action: string | null;
    }
  | { kind: 'status' }
  | { kind: 'score'; coverage: number }
  | { kind: 'close'; outcome: Outcome }
  | { kind: 'resume' }
  | { kind: 'open' };

const outcome = fc.constantFrom<Outcome>(
  'continue',
  'continue',
  'continue',
  'revise',
  'pause',
  'stop',
  'escalate',
  'complete',
);
const step: fc.Arbitrary<Step> = fc.oneof(
  {
    weight: 6,
    arbitrary: fc.record({
      kind: fc.constant('iterate' as const),
      outcome,
      // seeded ones too: the summary's per-epoch counts decide repeated-error and circular-state
      error: fc.constantFrom(null, null, 'boom at parser.ts:1', 'seed failure 5', 'seed failure 9'),
      state: fc.constantFrom(null, null, 'state A', 'seed state 7'),
      measure: fc.option(fc.tuple(fc.integer({ min: 40, max: 90 }), fc.integer({ min: 20, max: 50 }))),
      decision: fc.constantFrom(null, null, 'retain', 'revert'),
      action: fc.constantFrom(null, 'a1', 'a2', 'seed-3'),
    }),
  },
  { weight: 2, arbitrary: fc.constant({ kind: 'status' as const }) },
  {
    weight: 1,
    arbitrary: fc.record({ kind: fc.constant('score' as const), coverage: fc.integer({ min: 40, max: 90 }) }),
  },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('close' as const), outcome }) },
  { weight: 1, arbitrary: fc.constant({ kind: 'resume' as const }) },
  { weight: 1, arbitrary: fc.constant({ kind: 'open' as const }) },
);

function run(root: string, contractPath: string, s: Step): unknown {
  switch (s.kind) {
    case 'iterate':
      return iterateOp(root, SESSION, {
        outcome: s.outcome,
        actions: s.action === null ? [] : [s.action],
        error: s.error,
        state: s.state,
        measures: s.measure === null ? [] : [`coverage=${s.measure[0]}`, `build-seconds=${s.measure[1]}`],
        decision: s.decision,
        blocker: s.outcome === 'escalate' ? 'blocked' : null,
        evidence: s.outcome === 'escalate' ? 'the log' : null,
        recommendedNext: s.outcome === 'escalate' ? 'ask' : null,
        now: NOW,
      });
    case 'status':
      return statusOp(root, SESSION);
    case 'score':
      return scoreOp(root, SESSION, [`coverage=${s.coverage}`, 'build-seconds=35']);
    case 'close':
      return closeOp(root, SESSION, {
        outcome: s.outcome,
        blocker: 'blocked',
        evidence: 'the log',
        recommendedNext: 'ask',
      });
    case 'resume':
      return resumeOp(root, SESSION);
    case 'open':
      return openOp(root, SESSION, { contractPath, now: NOW });
  }
}

const ledgerOf = (root: string): string => join(root, '.loop', 'ledgers', `${SESSION}.json`);
/** The file without its seal: every reader must parse and check it in full. */
const unsealed = (text: string): string => text.replace(/\n {2}"records_sha256": "[0-9a-f]{64}",/, '');

describe('app: status and iterate through the seal equal the full path', function () {
  this.timeout(300_000);
  let work: string;
  let contractPath: string;
  let seed: string;

  before(() => {
    work = mkdtempSync(join(tmpdir(), 'loop-ledger-sealed-app-'));
    contractPath = join(work, 'contract.json');
    writeFileSync(contractPath, JSON.stringify(contract, null, 2));
    const root = join(work, 'seed');
    mkdirSync(root);
    assert.equal(openOp(root, SESSION, { contractPath, now: NOW }).exitCode, 0);
    for (let i = 1; i <= SEEDED; i += 1) {
      const done = iterateOp(root, SESSION, {
        outcome: 'continue',
        actions: [`seed-${i}`],
        error: i === 5 || i === 9 ? `seed failure ${i}` : null,
        state: i === 7 ? 'seed state 7' : `seed state ${i}-${i}`,
        measures: i % 25 === 0 ? [`coverage=${60 + (i % 20)}`, 'build-seconds=36'] : [],
        filesChanged: [`src/parser/part${i}.ts`, 'test/parser.test.ts'],
        commandsRun: ['npm test'],
        note: `seed iteration ${i} of the parser work — ünïcode; ${'the notes an agent leaves are long. '.repeat(6)}`,
        now: NOW,
      });
      assert.equal(done.exitCode, 0, JSON.stringify(done.findings));
    }
    seed = readFileSync(ledgerOf(root), 'utf8');
    assert.ok(readSealedLedger(ledgerOf(root), SESSION), 'the seed ledger must be sealed');
  });
  after(() => rmSync(work, { recursive: true, force: true }));

  it('every step answers the same and leaves byte-identical files', () => {
    let runs = 0;
    fc.assert(
      fc.property(fc.array(step, { minLength: 1, maxLength: 10 }), (steps) => {
        runs += 1;
        const fast = join(work, `fast-${runs}`);
        const full = join(work, `full-${runs}`);
        for (const root of [fast, full]) {
          mkdirSync(join(root, '.loop', 'ledgers'), { recursive: true });
          writeFileSync(ledgerOf(root), seed);
        }
        try {
          for (const s of steps) {
            const before = readFileSync(ledgerOf(fast), 'utf8');
            assert.equal(readFileSync(ledgerOf(full), 'utf8'), before);
            assert.ok(readSealedLedger(ledgerOf(fast), SESSION), 'the fast copy stays sealed');
            const stripped = unsealed(before);
            assert.notEqual(stripped, before);
            writeFileSync(ledgerOf(full), stripped);
            assert.equal(readSealedLedger(ledgerOf(full), SESSION), null);
            const a = run(fast, contractPath, s);
            const b = run(full, contractPath, s);
            assert.deepEqual(a, b, `step ${JSON.stringify(s)}`);
            const afterFull = readFileSync(ledgerOf(full), 'utf8');
            const afterFast = readFileSync(ledgerOf(fast), 'utf8');
            if (afterFull === stripped) {
              assert.equal(afterFast, before, `no write on the full path, none on the fast (${s.kind})`);
              copyFileSync(ledgerOf(fast), ledgerOf(full));
            } else {
              assert.equal(afterFast, afterFull, `the file after ${JSON.stringify(s)}`);
            }
          }
        } finally {
          rmSync(fast, { recursive: true, force: true });
          rmSync(full, { recursive: true, force: true });
        }
      }),
      { numRuns: 60 },
    );
  });
});
