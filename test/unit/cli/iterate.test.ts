import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { ledgerPath, readLedger } from '../helpers/cli';
import { assertNoStack, lines, loopWith, type Loop } from './setup';

const RECORD_KEYS = [
  'actions',
  'baseline',
  'blocker',
  'commands_run',
  'critic_brief',
  'critic_next',
  'critic_verdict',
  'decision',
  'dependency_missing',
  'epoch',
  'error_signature',
  'evaluation',
  'evidence',
  'evidence_paths',
  'files_changed',
  'measurements',
  'n',
  'note',
  'outcome',
  'recommended_next',
  'reported_outcome',
  'stall',
  'state_hash',
  'timestamp',
];

/** Asserts a refusal: the code, stdout empty, no stack, and the ledger file byte-identical. */
function assertRefused(loop: Loop, args: string[], code: number, pattern?: RegExp): string[] {
  const before = readFileSync(ledgerPath(loop.root, loop.session), 'utf8');
  const r = loop.cli('iterate', ...args);
  assert.equal(r.code, code, `expected exit ${code}, got ${r.code}: ${r.stderr}`);
  assert.equal(r.stdout, '');
  assertNoStack(r.stderr);
  if (pattern) assert.match(r.stderr, pattern);
  assert.equal(readFileSync(ledgerPath(loop.root, loop.session), 'utf8'), before, 'a refusal writes nothing');
  return lines(r.stderr);
}

describe('cli: iterate', () => {
  it('records the 24-key record as its payload; n, epoch, timestamp', () => {
    const loop = loopWith();
    const r = loop.cli(
      'iterate',
      '--outcome',
      'continue',
      '--action',
      'a1',
      '--action',
      'a2',
      '--json',
      '--files-changed',
      'src/x.ts',
      '--command-run',
      'npm test',
      '--evidence-path',
      ' ',
      '--evidence-path',
      'log.txt',
      '--note',
      'n1',
    );
    assert.equal(r.code, 0, r.stderr);
    assert.deepEqual(Object.keys(r.json), RECORD_KEYS);
    assert.equal(r.json.n, 1);
    assert.equal(r.json.epoch, 1);
    assert.match(r.json.timestamp, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
    assert.deepEqual(r.json.actions, ['a1', 'a2']);
    assert.deepEqual(r.json.evidence_paths, ['log.txt'], 'blank evidence paths are dropped');
    assert.equal(r.json.measurements, null);
    assert.equal(r.json.evaluation, null);
    assert.equal(r.json.baseline, null);
    assert.deepEqual(
      Object.keys(r.json).filter((k) => k.endsWith('outcome')),
      ['outcome', 'reported_outcome'],
    );
    const ledger = readLedger(loop.root, loop.session);
    assert.deepEqual(ledger.completed_actions, ['a1', 'a2']);
    assert.deepEqual(ledger.iterations[0], r.json);
  });

  describe("refusals, in the original work loop's order, write nothing", () => {
    it('1: over a closed ledger → 3 (before the action check)', () => {
      const loop = loopWith();
      loop.cli('iterate', '--outcome', 'complete', '--action', 'a1');
      assertRefused(loop, ['--outcome', 'continue', '--action', 'a1'], 3, /ledger is closed/);
    });

    it('2: a completed action → 5, the whole batch', () => {
      const loop = loopWith();
      loop.cli('iterate', '--outcome', 'continue', '--action', 'done');
      assertRefused(
        loop,
        ['--outcome', 'continue', '--action', 'fresh', '--action', 'done', '--dependency-missing', 'nope'],
        5,
        /done/,
      );
      assert.deepEqual(readLedger(loop.root, loop.session).completed_actions, ['done']);
    });

    it('3: an undeclared --dependency-missing → 1, whatever the outcome (before escalate fields)', () => {
      const loop = loopWith();
      assertRefused(loop, ['--outcome', 'escalate', '--dependency-missing', 'warp-drive'], 1, /warp-drive/);
      assertRefused(loop, ['--outcome', 'complete', '--dependency-missing', 'warp-drive'], 1);
    });

    it('4: escalate without all of blocker, evidence, recommended-next → 1 (before verdict checks)', () => {
      const loop = loopWith();
      const out = assertRefused(
        loop,
        ['--outcome', 'escalate', '--blocker', 'b', '--evidence', '  ', '--critic-verdict', 'NOPE'],
        1,
      );
      assert.equal(out.length, 2);
      assert.match(out.join('\n'), /--evidence/);
      assert.match(out.join('\n'), /--recommended-next/);
    });

    it('5: collected findings in one exit 1: verdict, decision, brief, critic-next, evidence path, measurements', () => {
      const loop = loopWith();
      const out = assertRefused(
        loop,
        [
          '--outcome',
          'continue',
          '--critic-verdict',
          'MAYBE',
          '--decision',
          'keep',
          '--measure',
          'nope=1',
          '--measure',
          'hard-one=x',
        ],
        1,
      );
      const text = out.join('\n');
      for (const p of [
        /MAYBE/,
        /keep/,
        /--critic-brief/,
        /--critic-next/,
        /--evidence-path/,
        /nope/,
        /hard-one/,
        /soft-one/,
      ]) {
        assert.match(text, p);
      }
    });

    it('a verdict with no brief pending, or with another id → 1', () => {
      const loop = loopWith();
      const args = [
        '--outcome',
        'continue',
        '--critic-verdict',
        'PASS',
        '--critic-next',
        'n',
        '--evidence-path',
        'e',
      ];
      assertRefused(loop, [...args, '--critic-brief', 'abc'], 1, /no brief pending/);
    });

    it('measurements: all declared dimensions or none; non-finite refused', () => {
      const loop = loopWith();
      assertRefused(loop, ['--outcome', 'continue', '--measure', 'hard-one=1'], 1, /soft-one/);
      for (const bad of ['NaN', 'inf', '1e999', '-Infinity', '']) {
        assertRefused(
          loop,
          ['--outcome', 'continue', '--measure', `hard-one=${bad}`, '--measure', 'soft-one=1'],
          1,
          /hard-one/,
        );
      }
      assertRefused(
        loop,
        [
          '--outcome',
          'continue',
          '--measure',
          'hard-one=1',
          '--measure',
          'hard-one=2',
          '--measure',
          'soft-one=1',
        ],
        1,
        /more than once/,
      );
    });

    it('6: --decision retain over a breached hard gate → 7; without measurements retain is accepted', () => {
      const loop = loopWith();
      assertRefused(
        loop,
        [
          '--outcome',
          'continue',
          '--decision',
          'retain',
          '--measure',
          'hard-one=5',
          '--measure',
          'soft-one=100',
        ],
        7,
        /hard-one/,
      );
      const ok = loop.cli('iterate', '--outcome', 'continue', '--decision', 'retain', '--json');
      assert.equal(ok.code, 0, ok.stderr);
      assert.equal(ok.json.decision, 'retain');
      const revert = loop.cli(
        'iterate',
        '--outcome',
        'continue',
        '--decision',
        'revert',
        '--measure',
        'hard-one=5',
        '--measure',
        'soft-one=100',
      );
      assert.equal(revert.code, 0, 'a breached gate with a revert decision is recorded');
    });
  });

  describe('derived fields', () => {
    it('scores the pinned totals: (0, 10) → 28.0 pass; (5, 100) → 90.0 fail', () => {
      const loop = loopWith();
      const a = loop.cli(
        'iterate',
        '--outcome',
        'continue',
        '--measure',
        'hard-one=0',
        '--measure',
        'soft-one=10',
        '--json',
      );
      assert.equal(a.json.evaluation.weighted_total, 28);
      assert.equal(a.json.evaluation.verdict, 'pass');
      assert.deepEqual(
        a.json.baseline,
        { 'hard-one': 10, 'soft-one': 0 },
        'first baseline: the declared baselines',
      );
      const b = loop.cli(
        'iterate',
        '--outcome',
        'continue',
        '--measure',
        'hard-one=5',
        '--measure',
        'soft-one=100',
        '--json',
      );
      assert.equal(b.json.evaluation.weighted_total, 90);
      assert.equal(b.json.evaluation.verdict, 'fail');
      assert.deepEqual(b.json.evaluation.hard_gate_failures, ['hard-one']);
      assert.deepEqual(
        b.json.baseline,
        { 'hard-one': 0, 'soft-one': 10 },
        "second baseline: the first's measurements",
      );
      const dim = b.json.evaluation.dimensions[0];
      assert.deepEqual(Object.keys(dim).sort(), [
        'dimension',
        'evidence_command',
        'failure_threshold',
        'gate_failed',
        'hard_gate',
        'measured',
        'must_not_regress',
        'score',
        'weight',
      ]);
      assert.equal(dim.score, 50, 'a breached gate can still score 50');
      // An unmeasured record is skipped when deriving the next baseline.
      loop.cli('iterate', '--outcome', 'continue');
      const d = loop.cli(
        'iterate',
        '--outcome',
        'continue',
        '--measure',
        'hard-one=1',
        '--measure',
        'soft-one=1',
        '--json',
      );
      assert.deepEqual(d.json.baseline, { 'hard-one': 5, 'soft-one': 100 });
    });

    it('error signatures normalise numbers, paths, quotes and hex; state hashes normalise case and spacing', () => {
      const loop = loopWith({ iteration_limit: 50 });
      const a = loop.cli(
        'iterate',
        '--outcome',
        'continue',
        '--error',
        'Failed at /src/a.ts:12 with "x" 0xdeadbeef',
        '--state',
        'Cov  67',
        '--json',
      );
      const b = loop.cli(
        'iterate',
        '--outcome',
        'continue',
        '--error',
        'failed at /lib/b.js:99 with "yy" 0x1',
        '--state',
        'cov 68',
        '--json',
      );
      assert.match(a.json.error_signature, /^[0-9a-f]{16}$/);
      assert.equal(a.json.error_signature, b.json.error_signature);
      assert.match(a.json.state_hash, /^[0-9a-f]{16}$/);
      assert.notEqual(a.json.state_hash, b.json.state_hash);
    });
  });

  describe('stall predicates (only for a reported continue)', () => {
    it('repeated-error at the threshold → escalate with derived blocker, evidence, next', () => {
      const loop = loopWith({ iteration_limit: 50 });
      loop.cli('iterate', '--outcome', 'continue', '--error', 'boom 1');
      loop.cli('iterate', '--outcome', 'continue', '--error', 'other failure');
      const r = loop.cli('iterate', '--outcome', 'continue', '--error', 'boom 2', '--json');
      assert.equal(r.json.outcome, 'continue', 'two of the same signature with threshold 3: no stall yet');
      const s = loop.cli('iterate', '--outcome', 'continue', '--error', 'boom 3', '--json');
      assert.equal(s.json.reported_outcome, 'continue');
      assert.equal(s.json.outcome, 'escalate');
      assert.equal(s.json.stall, 'repeated-error');
      assert.equal(s.json.evidence, `error signature ${s.json.error_signature} repeated to threshold 3`);
      assert.ok(s.json.blocker && s.json.recommended_next);
      const l = readLedger(loop.root, loop.session);
      assert.equal(l.status, 'closed');
      assert.equal(l.final_outcome, 'escalate');
      assert.equal(l.close_evidence, s.json.evidence);
    });

    it('--stall-threshold sets the repeated-error threshold', () => {
      const loop = loopWith({ iteration_limit: 50 }, ['--stall-threshold', '2']);
      loop.cli('iterate', '--outcome', 'continue', '--error', 'e 1');
      const r = loop.cli('iterate', '--outcome', 'continue', '--error', 'e 2', '--json');
      assert.equal(r.json.stall, 'repeated-error');
    });

    it('dependency-unavailable wins first; caller-given escalate fields are kept', () => {
      const loop = loopWith();
      const r = loop.cli(
        'iterate',
        '--outcome',
        'continue',
        '--dependency-missing',
        'registry',
        '--blocker',
        'my words',
        '--json',
      );
      assert.equal(r.json.stall, 'dependency-unavailable');
      assert.equal(r.json.outcome, 'escalate');
      assert.equal(r.json.blocker, 'my words');
      assert.equal(r.json.evidence, 'declared dependency unreachable: registry');
      assert.equal(r.json.dependency_missing, 'registry');
    });

    it('circular-state → revise; retries-exhausted → stop at the limit', () => {
      const loop = loopWith({ iteration_limit: 50 });
      loop.cli('iterate', '--outcome', 'continue', '--state', 'same');
      const r = loop.cli('iterate', '--outcome', 'continue', '--state', 'SAME', '--json');
      assert.equal(r.json.stall, 'circular-state');
      assert.equal(r.json.outcome, 'revise');
      assert.equal(r.json.blocker, null, 'revise and stop stalls derive nothing');
      const limited = loopWith({ iteration_limit: 3 });
      assert.equal(limited.cli('iterate', '--outcome', 'continue', '--json').json.outcome, 'continue');
      assert.equal(limited.cli('iterate', '--outcome', 'continue', '--json').json.outcome, 'continue');
      const third = limited.cli('iterate', '--outcome', 'continue', '--json');
      assert.equal(third.json.stall, 'retries-exhausted');
      assert.equal(third.json.outcome, 'stop');
      const one = loopWith({ iteration_limit: 1 });
      assert.equal(one.cli('iterate', '--outcome', 'continue', '--json').json.outcome, 'stop');
    });

    it('a terminal reported outcome is never relabelled', () => {
      const loop = loopWith({ iteration_limit: 1 });
      const r = loop.cli('iterate', '--outcome', 'pause', '--dependency-missing', 'node', '--json');
      assert.equal(r.json.outcome, 'pause');
      assert.equal(r.json.stall, null);
    });
  });

  it('a terminal outcome closes the ledger with the six close keys', () => {
    const loop = loopWith();
    const r = loop.cli(
      'iterate',
      '--outcome',
      'escalate',
      '--blocker',
      'B',
      '--evidence',
      'E',
      '--recommended-next',
      'R',
      '--note',
      'N',
    );
    assert.equal(r.code, 0, r.stderr);
    const l = readLedger(loop.root, loop.session);
    assert.equal(l.status, 'closed');
    assert.equal(l.final_outcome, 'escalate');
    assert.equal(l.close_note, 'N');
    assert.equal(l.close_blocker, 'B');
    assert.equal(l.close_evidence, 'E');
    assert.equal(l.close_recommended_next, 'R');
  });
});
