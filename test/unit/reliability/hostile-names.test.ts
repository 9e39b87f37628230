// Names that are special to JavaScript objects (`__proto__`, `constructor`, `prototype`,
// `toString`…) and to Windows (`CON`, `NUL`, `COM1`…), through the real CLI. A dimension named
// `__proto__` must be scored like any other (its hard gate can fail), and round-trip into the
// ledger; a device name must never become a ledger file.
import assert from 'node:assert/strict';
import { readdirSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { sortKeysDeep } from '../../../src/engine/ledger-view';
import { parseMeasurements } from '../../../src/engine/measurements';
import { scoreRubric } from '../../../src/engine/score';
import { deriveBaseline } from '../../../src/engine/baseline';
import { packetMarkdown } from '../../../src/extension/brief/packetMarkdown';
import type { Contract, RubricDimension } from '../../../src/engine/types';
import { sessionIdProblem } from '../../../src/store/session-id';
import { ledgerPath, runCli, sampleContract, tempRoot, writeText } from '../helpers/cli';

/** Names an object literal treats specially: every one must behave as an ordinary name. */
const SPECIAL = ['__proto__', 'constructor', 'prototype', 'toString', 'hasOwnProperty', 'valueOf'];

function dimension(name: string, hardGate: boolean): Record<string, unknown> {
  return {
    dimension: name,
    evidence_command: 'echo 1',
    baseline: 10,
    target: 0,
    weight: 1,
    failure_threshold: 5,
    direction: 'lower-is-better',
    hard_gate: hardGate,
  };
}

/**
 * Contract JSON text whose rubric uses `names` (the first one a hard gate) and whose
 * `starting_state` carries a nested `__proto__` key. Written as text: an object literal or
 * JSON.stringify of one cannot hold an own `__proto__` key.
 */
function contractText(names: string[]): string {
  const rubric = names.map((name, i) => dimension(name, i === 0));
  const text = JSON.stringify(
    sampleContract({ quality_rubric: rubric, starting_state: { PROTO: { x: 1 }, a: 2 } }),
  );
  return text.replace('"PROTO"', '"__proto__"');
}

describe('reliability: names special to objects (`__proto__`, `constructor`, `toString`)', function () {
  this.timeout(60_000);
  let root: string;
  let contract: string;
  const cli = (...args: string[]) => runCli([args[0] as string, '--root', root, ...args.slice(1)]);

  before(() => {
    root = tempRoot('loop-ledger-names-');
    contract = writeText(join(root, 'c.json'), contractText(SPECIAL));
  });
  after(() => rmSync(root, { recursive: true, force: true }));

  it('validate and open accept the names as ordinary dimension names', () => {
    const valid = cli('validate', contract, '--json');
    assert.equal(valid.code, 0, valid.stderr);
    assert.equal(valid.json.dimensions, SPECIAL.length);
    const opened = cli('open', '--session', 'p', '--contract', contract);
    assert.equal(opened.code, 0, opened.stderr);
    const ledger = readFileSync(ledgerPath(root, 'p'), 'utf8');
    const parsed = JSON.parse(ledger);
    // Every name keeps its provenance entry, and the nested contract key survives the key sort.
    assert.deepEqual(Object.keys(parsed.baseline_provenance), [...SPECIAL].sort());
    assert.deepEqual(Object.keys(parsed.contract.starting_state), ['__proto__', 'a']);
    assert.deepEqual(parsed.contract.starting_state.__proto__, { x: 1 });
  });

  const measures = (gate: number) =>
    SPECIAL.flatMap((name, i) => ['--measure', `${name}=${i === 0 ? gate : 1}`]);

  it('score: a breached hard gate named __proto__ exits 6 and names it', () => {
    const scored = cli('score', '--session', 'p', ...measures(100), '--json');
    assert.equal(scored.code, 6, scored.stderr);
    assert.deepEqual(scored.json.hard_gate_failures, ['__proto__']);
    assert.equal(scored.json.verdict, 'fail');
    assert.ok(Number.isFinite(scored.json.weighted_total), String(scored.json.weighted_total));
    const measured = Object.fromEntries(
      scored.json.dimensions.map((d: { dimension: string; measured: number }) => [d.dimension, d.measured]),
    );
    assert.equal(measured.toString, 1);
  });

  it('iterate --decision retain over that breached gate exits 7 and records nothing', () => {
    const before = readFileSync(ledgerPath(root, 'p'), 'utf8');
    const result = cli(
      'iterate',
      '--session',
      'p',
      '--outcome',
      'continue',
      '--decision',
      'retain',
      ...measures(100),
    );
    assert.equal(result.code, 7, result.stderr);
    assert.match(result.stderr, /hard gate __proto__ is breached/);
    assert.equal(readFileSync(ledgerPath(root, 'p'), 'utf8'), before);
  });

  it('iterate records every name in measurements, baseline and evaluation, and the next read keeps them', () => {
    const first = cli('iterate', '--session', 'p', '--outcome', 'continue', ...measures(3), '--json');
    assert.equal(first.code, 0, first.stderr);
    const second = cli('iterate', '--session', 'p', '--outcome', 'continue', ...measures(4), '--json');
    assert.equal(second.code, 0, second.stderr);
    const ledger = JSON.parse(readFileSync(ledgerPath(root, 'p'), 'utf8'));
    const [one, two] = ledger.iterations;
    assert.deepEqual(Object.keys(one.measurements).sort(), [...SPECIAL].sort());
    assert.equal(one.measurements.__proto__, 3);
    // The second record's baseline is the first's measurements, `__proto__` included.
    assert.equal(two.baseline.__proto__, 3);
    assert.equal(two.measurements.__proto__, 4);
    assert.deepEqual(Object.keys(one.baseline).sort(), [...SPECIAL].sort());
    assert.equal(one.evaluation.dimensions.length, SPECIAL.length);
    const status = cli('status', '--session', 'p', '--json');
    assert.equal(status.code, 0, status.stderr);
  });

  it('a nested "__proto__" key is still refused where the contract declares its keys', () => {
    const text = JSON.stringify(sampleContract()).replace(
      '"hard_gate":true',
      '"hard_gate":true,"__proto__":{}',
    );
    const path = writeText(join(root, 'proto-key.json'), text);
    const result = cli('validate', path);
    assert.equal(result.code, 1);
    assert.match(result.stderr, /quality_rubric\[0\]\.__proto__: not a dimension key/);
  });
});

describe('engine: maps keyed by user text keep names special to objects', () => {
  const rubric = SPECIAL.map((name, i) => dimension(name, i === 0)) as unknown as RubricDimension[];

  it('parseMeasurements and scoreRubric keep `__proto__` as a key', () => {
    const parsed = parseMeasurements(
      SPECIAL.map((name) => `${name}=9`),
      rubric,
      true,
    );
    assert.deepEqual(parsed.findings, []);
    assert.deepEqual(Object.keys(parsed.values).sort(), [...SPECIAL].sort());
    const evaluation = scoreRubric(rubric, parsed.values);
    assert.deepEqual(evaluation.hard_gate_failures, ['__proto__']);
  });

  it('an unmeasured `toString` is reported, not found on the prototype', () => {
    const parsed = parseMeasurements(['__proto__=1'], rubric, true);
    assert.ok(parsed.findings.some((f) => f.message.includes('"toString" was not measured')));
  });

  it('sortKeysDeep keeps a nested `__proto__` key and the prototype of its result', () => {
    const value = JSON.parse('{"b":{"__proto__":{"x":1},"a":[{"__proto__":2}]}}');
    const sorted = sortKeysDeep(value);
    assert.equal(JSON.stringify(sorted), '{"b":{"__proto__":{"x":1},"a":[{"__proto__":2}]}}');
    assert.equal(Object.getPrototypeOf(sorted.b), Object.prototype);
    assert.equal(sorted.b.x, undefined, 'the nested object did not become a prototype');
  });

  it('deriveBaseline: declared baselines for every name, no inherited `toString`', () => {
    const contract = { quality_rubric: rubric } as unknown as Contract;
    const declared = deriveBaseline({ iterations: [], contract });
    assert.deepEqual(Object.keys(declared).sort(), [...SPECIAL].sort());
    assert.equal(declared.__proto__, 10);
    const partial = deriveBaseline({
      iterations: [{ measurements: JSON.parse('{"__proto__":4}') }] as never,
      contract,
    });
    assert.equal(partial.__proto__, 4);
    assert.equal(partial.toString, undefined);
  });
});

describe('extension: packet export with names special to objects', () => {
  it('a `toString` or `constructor` dimension shows its declared baseline, not a function', () => {
    const rubric = ['toString', 'constructor', '__proto__'].map((name) => dimension(name, false));
    const markdown = packetMarkdown(
      's',
      { kind: 'worktree', label: 'Working tree vs HEAD', base: 'HEAD', head: ':worktree' } as never,
      {
        brief_id: 'b',
        rubric: rubric as never,
        baseline: JSON.parse('{"__proto__": 7}'), // as a packet arrives from JSON: a plain object
        diff: '',
        verification: '',
        scope: { provenance: 'unverified', declared_paths: null, diff_paths: [], undeclared_paths: [] },
        verdicts: ['PASS'],
        asks: [],
      },
    );
    assert.doesNotMatch(markdown, /native code|function/);
    assert.match(markdown, /\| toString \| lower-is-better \| 1 \| 10 \|/);
    assert.match(markdown, /\| constructor \| lower-is-better \| 1 \| 10 \|/);
    assert.match(markdown, /\| __proto__ \| lower-is-better \| 1 \| 7 \|/);
  });
});

describe('reliability: Windows device names as session ids', function () {
  this.timeout(60_000);
  const devices = [
    'CON',
    'prn',
    'Aux',
    'nul',
    'COM1',
    'com9',
    'LPT1',
    'lpt9',
    'con.json',
    'Com1.x',
    'NUL.tar.gz',
  ];

  it('sessionIdProblem refuses each, any case, with or without an extension, and names why', () => {
    for (const id of devices) {
      const problem = sessionIdProblem(id);
      assert.ok(problem !== null, id);
      assert.match(problem, /Windows device name/, problem);
    }
    for (const id of ['CONTRACT', 'con-1', 'console', 'nullable', 'com10', 'lpt', 'com', 'a.con', 'x.nul']) {
      assert.equal(sessionIdProblem(id), null, id);
    }
  });

  it('every command refuses them with exit 2 and writes nothing', () => {
    const root = tempRoot('loop-ledger-devices-');
    try {
      const contract = writeText(join(root, 'c.json'), JSON.stringify(sampleContract()));
      for (const id of ['CON', 'con.json', 'Com1.x', 'lpt9']) {
        for (const args of [
          ['open', '--contract', contract],
          ['iterate', '--outcome', 'continue'],
          ['status'],
          ['score', '--measure', 'hard-one=1', '--measure', 'soft-one=1'],
          ['resume'],
          ['close', '--outcome', 'stop'],
        ]) {
          const result = runCli([args[0] as string, '--root', root, '--session', id, ...args.slice(1)]);
          assert.equal(result.code, 2, `${args[0]} ${id}: ${result.stderr}`);
          assert.match(result.stderr, /Windows device name/);
        }
      }
      assert.deepEqual(readdirSync(root), ['c.json']);
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });

  it('open refuses an id whose other-case spelling already has a ledger (exit 2)', () => {
    const root = tempRoot('loop-ledger-case-');
    try {
      const contract = writeText(join(root, 'c.json'), JSON.stringify(sampleContract()));
      const open = (id: string) => runCli(['open', '--root', root, '--session', id, '--contract', contract]);
      assert.equal(open('Fix-1').code, 0);
      const twin = open('fix-1');
      assert.equal(twin.code, 2, twin.stderr);
      assert.match(twin.stderr, /"Fix-1" exists.*differ only in case/);
      assert.deepEqual(readdirSync(join(root, '.loop', 'ledgers')), ['Fix-1.json']);
      // The same spelling is the same session: re-opening it is a state question (exit 3), not a clash.
      assert.equal(open('Fix-1').code, 3);
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });
});
