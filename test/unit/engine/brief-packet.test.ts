// The critic packet: Python-compatible serialisation, the brief id, and `brief` itself
// (refusal order, packet shape, the pending brief it arms).
import assert from 'node:assert/strict';
import { brief, briefId, pythonFloatRepr, pythonJsonDumps } from '../../../src/engine/brief';
import type { BriefInput, BriefPacket, BriefResult } from '../../../src/engine/brief';
import { isRefusal } from '../../../src/engine/refusal';
import type { Refusal } from '../../../src/engine/refusal';
import type { Contract, IterationRecord, Ledger, RubricDimension } from '../../../src/engine/types';

const RUBRIC: RubricDimension[] = [
  {
    dimension: 'coverage',
    evidence_command: 'npm test',
    baseline: 70,
    target: 90,
    weight: 100,
    failure_threshold: 60,
    direction: 'higher-is-better',
    hard_gate: true,
  },
];

// Expected ids below were computed by CPython 3 with
// sha256(json.dumps({"diff", "verification", "rubric", "scope"}, sort_keys=True)).hexdigest()[:16].
const DIFF =
  'diff --git a/src/app.ts b/src/app.ts\n--- a/src/app.ts\n+++ b/src/app.ts\n@@ -1 +1 @@\n-old\n+new \u00e9\n';
const VERIFICATION = '12 passing\n';

function ledger(overrides: Partial<Ledger> = {}): Ledger {
  const contract: Contract = {
    purpose: 'p',
    owner: 'o',
    starting_state: 's',
    inputs: [],
    expected_outputs: [],
    success_criteria: [],
    failure_criteria: [],
    dependencies: [],
    iteration_limit: 3,
    timeout_behaviour: 't',
    escalation_path: 'e',
    quality_rubric: RUBRIC,
  };
  return {
    session: 's1',
    contract,
    status: 'open',
    final_outcome: null,
    iterations: [],
    completed_actions: [],
    resumed: 0,
    pending_brief: null,
    ...overrides,
  };
}

const text = (path: string, body: string): BriefInput => ({ path, text: body });
const broken = (path: string): BriefInput => ({ path, error: 'ENOENT: no such file or directory' });

function ok(result: BriefResult | Refusal): { ledger: Ledger; payload: BriefPacket } {
  if (isRefusal(result)) assert.fail(`refused: ${result.findings.map((f) => f.message).join('; ')}`);
  return result;
}

function refused(result: BriefResult | Refusal): Refusal {
  if (!isRefusal(result)) assert.fail('expected a refusal');
  return result;
}

describe('brief: pythonJsonDumps', () => {
  it('matches CPython json.dumps(sort_keys=True) on mixed data', () => {
    // From CPython: json.dumps({"b": [1, 2.5, None, True, False], "a": {"z": "é", "y": "\U0001F600"},
    //   "\ue000": 1, "\U0001F600": 2, "A": "tab\tnl\nq\"bs\\del\x7fnul\x00"}, sort_keys=True)
    const value = {
      b: [1, 2.5, null, true, false],
      a: { z: '\u00e9', y: '\u{1F600}' },
      '\uE000': 1,
      '\u{1F600}': 2,
      A: 'tab\tnl\nq"bs\\del\x7fnul\x00',
    };
    assert.equal(
      pythonJsonDumps(value),
      '{"A": "tab\\tnl\\nq\\"bs\\\\del\\u007fnul\\u0000", "a": {"y": "\\ud83d\\ude00", "z": "\\u00e9"}, ' +
        '"b": [1, 2.5, null, true, false], "\\ue000": 1, "\\ud83d\\ude00": 2}',
    );
  });

  it('prints floats as Python repr does inside JSON', () => {
    // From CPython: json.dumps([1e-05, 0.5, -0.25, 3])
    assert.equal(pythonJsonDumps([1e-5, 0.5, -0.25, 3]), '[1e-05, 0.5, -0.25, 3]');
    assert.equal(pythonJsonDumps([NaN, Infinity, -Infinity]), '[NaN, Infinity, -Infinity]');
  });

  it('prints empty containers and integral numbers as ints (10 and 10.0 are indistinguishable in JS)', () => {
    assert.equal(pythonJsonDumps({ x: [], y: {}, z: 10.0 }), '{"x": [], "y": {}, "z": 10}');
    assert.equal(pythonJsonDumps(1e21), '1000000000000000000000');
  });

  it('escapes long strings identically when they are written in slices', () => {
    const long = 'line "\u00e9" \u{1F600}\n'.repeat(20000);
    const parsed = JSON.parse(pythonJsonDumps(long)) as string;
    assert.equal(parsed, long);
    assert.match(pythonJsonDumps(long), /^[\x20-\x7e]*$/);
  });
});

describe('brief: pythonFloatRepr', () => {
  it('matches CPython repr(float)', () => {
    // From CPython: [repr(x) for x in [0.1, 1e-05, 0.0001, 1e16, 1.5e16, 1e15, 123.456, -2.5e-07, 1e22, 10.0]]
    const cases: [number, string][] = [
      [0.1, '0.1'],
      [1e-5, '1e-05'],
      [0.0001, '0.0001'],
      [1e16, '1e+16'],
      [1.5e16, '1.5e+16'],
      [1e15, '1000000000000000.0'],
      [123.456, '123.456'],
      [-2.5e-7, '-2.5e-07'],
      [1e22, '1e+22'],
      [10, '10.0'],
      [-0, '-0.0'],
      [Infinity, 'inf'],
      [NaN, 'nan'],
    ];
    for (const [n, expected] of cases) assert.equal(pythonFloatRepr(n), expected, String(n));
  });
});

describe('brief: briefId', () => {
  it('equals the id CPython computes', () => {
    assert.equal(
      briefId({ diff: DIFF, verification: VERIFICATION, rubric: RUBRIC, scope: null }),
      '3f3877985a432e68',
    );
    assert.equal(
      briefId({ diff: DIFF, verification: VERIFICATION, rubric: RUBRIC, scope: ['src/app.ts'] }),
      '7dabc4875bfe3a42',
    );
    assert.equal(
      briefId({ diff: DIFF, verification: VERIFICATION, rubric: [], scope: null }),
      '3b62a1ab57564f0a',
    );
  });

  it('is 16 lower-case hex digits and changes with each part', () => {
    const base = { diff: DIFF, verification: VERIFICATION, rubric: RUBRIC, scope: null };
    const id = briefId(base);
    assert.match(id, /^[0-9a-f]{16}$/);
    assert.notEqual(briefId({ ...base, diff: DIFF + ' ' }), id);
    assert.notEqual(briefId({ ...base, verification: 'x' }), id);
    assert.notEqual(briefId({ ...base, rubric: [{ ...RUBRIC[0], weight: 50 }] }), id);
    assert.notEqual(briefId({ ...base, scope: [] }), id);
  });
});

describe('brief: command', () => {
  const inputs = { diff: text('d.patch', DIFF), verification: text('v.txt', VERIFICATION) };

  it('returns the eight-key packet and arms it as the pending brief', () => {
    const { ledger: next, payload } = ok(brief(ledger(), inputs));
    assert.deepEqual(Object.keys(payload).sort(), [
      'asks',
      'baseline',
      'brief_id',
      'diff',
      'rubric',
      'scope',
      'verdicts',
      'verification',
    ]);
    assert.equal(payload.brief_id, '3f3877985a432e68');
    assert.deepEqual(payload.rubric, RUBRIC);
    assert.deepEqual({ ...payload.baseline }, { coverage: 70 });
    assert.equal(payload.diff, DIFF);
    assert.equal(payload.verification, VERIFICATION);
    assert.deepEqual(payload.verdicts, ['PASS', 'FAIL', 'REVISE', 'REVERT', 'ESCALATE']);
    assert.equal(payload.asks.length, 6);
    assert.deepEqual(payload.scope, {
      provenance: 'unverified',
      declared_paths: null,
      diff_paths: ['src/app.ts'],
      undeclared_paths: [],
    });
    assert.deepEqual(next.pending_brief, { brief_id: payload.brief_id });
  });

  it('gives the same id for the same packet twice, and a different one for a changed diff', () => {
    const first = ok(brief(ledger(), inputs)).payload.brief_id;
    assert.equal(ok(brief(ledger(), inputs)).payload.brief_id, first);
    const changed = ok(brief(ledger(), { ...inputs, diff: text('d.patch', DIFF.replace('new', 'newer')) }));
    assert.notEqual(changed.payload.brief_id, first);
  });

  it('replaces an earlier pending brief, leaves the input ledger untouched and ignores status', () => {
    const before = ledger({
      status: 'closed',
      final_outcome: 'complete',
      pending_brief: { brief_id: 'old' },
    });
    const { ledger: next, payload } = ok(brief(before, inputs));
    assert.deepEqual(next.pending_brief, { brief_id: payload.brief_id });
    assert.deepEqual(before.pending_brief, { brief_id: 'old' });
    assert.equal(next.status, 'closed');
  });

  it('uses the newest measured record as the baseline', () => {
    const record = { measurements: { coverage: 81 } } as unknown as IterationRecord;
    const blank = { measurements: null } as unknown as IterationRecord;
    // Spread: the engine's baseline has no prototype (a dimension may be named `__proto__`).
    assert.deepEqual(
      { ...ok(brief(ledger({ iterations: [record, blank] }), inputs)).payload.baseline },
      {
        coverage: 81,
      },
    );
  });

  it('verifies a declared scope, and the declared paths change the id', () => {
    const scoped = ok(brief(ledger(), { ...inputs, changeScope: text('scope.txt', 'src/app.ts\n') }));
    assert.equal(scoped.payload.brief_id, '7dabc4875bfe3a42');
    assert.deepEqual(scoped.payload.scope, {
      provenance: 'verified',
      declared_paths: ['src/app.ts'],
      diff_paths: ['src/app.ts'],
      undeclared_paths: [],
    });
  });

  it('gives the same id for a --stat and a --name-only transcript of the same paths', () => {
    const diff = DIFF + 'diff --git a/lib/x.ts b/lib/x.ts\n--- a/lib/x.ts\n+++ b/lib/x.ts\n';
    const stat =
      'commit 0123456789abcdef\nAuthor: A <a@b>\n\n    message\n\n src/app.ts | 2 +-\n lib/x.ts   | 1 +\n 2 files changed\n';
    const names = 'lib/x.ts\nsrc/app.ts\n';
    const a = ok(brief(ledger(), { ...inputs, diff: text('d', diff), changeScope: text('s', stat) }));
    const b = ok(brief(ledger(), { ...inputs, diff: text('d', diff), changeScope: text('s', names) }));
    assert.equal(a.payload.brief_id, b.payload.brief_id);
  });

  it('records diff paths nobody declared without refusing', () => {
    const diff = DIFF + '--- a/extra.md\n+++ b/extra.md\n';
    const { payload } = ok(
      brief(ledger(), { ...inputs, diff: text('d', diff), changeScope: text('s', 'src/app.ts\n') }),
    );
    assert.deepEqual(payload.scope.undeclared_paths, ['extra.md']);
  });

  it('covers an abbreviated stat path through its unique match', () => {
    const { payload } = ok(brief(ledger(), { ...inputs, changeScope: text('s', ' .../app.ts | 2 +-\n') }));
    assert.deepEqual(payload.scope.declared_paths, ['.../app.ts']);
    assert.deepEqual(payload.scope.undeclared_paths, []);
  });

  for (const [name, key, flag] of [
    ['diff', 'diff', '--diff-file'],
    ['verification', 'verification', '--verification-file'],
    ['change scope', 'changeScope', '--change-scope'],
  ] as const) {
    it(`refuses an unreadable ${name} with 8, naming the file and ${flag}`, () => {
      const before = ledger({ pending_brief: { brief_id: 'keep' } });
      const result = refused(
        brief(before, { ...inputs, changeScope: text('s', 'src/app.ts\n'), [key]: broken(`${key}.in`) }),
      );
      assert.equal(result.exitCode, 8);
      assert.equal(result.findings.length, 1);
      assert.ok(result.findings[0]?.message.includes(`${key}.in`));
      assert.ok(result.findings[0]?.message.includes(flag));
      assert.deepEqual(before.pending_brief, { brief_id: 'keep' });
    });

    it(`refuses a whitespace-only ${name} with 8`, () => {
      const result = refused(
        brief(ledger(), {
          ...inputs,
          changeScope: text('s', 'src/app.ts\n'),
          [key]: text(`${key}.in`, ' \n\t\r\n'),
        }),
      );
      assert.equal(result.exitCode, 8);
      assert.ok(result.findings[0]?.message.includes(flag));
      assert.match(result.findings[0]?.message ?? '', /empty/);
    });
  }

  it('reports only the first failing input, in the order diff, verification, scope', () => {
    const result = refused(
      brief(ledger(), {
        diff: text('d.patch', '\n'),
        verification: broken('v.txt'),
        changeScope: broken('s.txt'),
      }),
    );
    assert.equal(result.findings.length, 1);
    assert.ok(result.findings[0]?.message.includes('d.patch'));
    const second = refused(
      brief(ledger(), { ...inputs, verification: broken('v.txt'), changeScope: text('s.txt', ' ') }),
    );
    assert.equal(second.findings.length, 1);
    assert.ok(second.findings[0]?.message.includes('v.txt'));
  });

  it('refuses a change scope that names no paths with 9', () => {
    const result = refused(
      brief(ledger(), {
        ...inputs,
        changeScope: text('scope.txt', 'commit abcdef1\n\n    only a message\n'),
      }),
    );
    assert.equal(result.exitCode, 9);
    assert.ok(result.findings[0]?.message.includes('scope.txt'));
  });

  it('refuses with 9 and lists every declared path the diff does not cover', () => {
    const scope = ' src/app.ts | 2 +-\n missing.ts | 1 +\n .../gone.ts | 4 ++--\n';
    const before = ledger({ pending_brief: { brief_id: 'keep' } });
    const result = refused(brief(before, { ...inputs, changeScope: text('s', scope) }));
    assert.equal(result.exitCode, 9);
    assert.deepEqual(
      result.findings.map((f) => f.message.split(':')[0]),
      ['.../gone.ts', 'missing.ts'],
    );
    assert.deepEqual(before.pending_brief, { brief_id: 'keep' });
  });

  it('refuses an ambiguous abbreviation with 9', () => {
    const diff = '--- a/a/util.ts\n+++ b/a/util.ts\n--- a/b/util.ts\n+++ b/b/util.ts\n';
    const result = refused(
      brief(ledger(), { ...inputs, diff: text('d', diff), changeScope: text('s', ' .../util.ts | 1 +\n') }),
    );
    assert.equal(result.exitCode, 9);
    assert.equal(result.findings[0]?.code, 'scope-ambiguous');
  });

  it('reads CRLF inputs as Python text mode does, so ids match LF files', () => {
    const crlf = ok(
      brief(ledger(), {
        diff: text('d', DIFF.replace(/\n/g, '\r\n')),
        verification: text('v', '12 passing\r\n'),
      }),
    );
    assert.equal(crlf.payload.brief_id, '3f3877985a432e68');
  });
});
