// `wo oracle-check`: tamper signals over a name-status diff against caller-given rules; a
// work order's own `oracle_update.classes` (in a closed frontmatter only) turns a halt into a flag.
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { oracleGlob } from '../../../src/engine/workorders/oracle';
import { runCli, tempRoot } from '../helpers/cli';

const RULES = [
  {
    type: 'test_baseline',
    globs: ['tests/**/*.snap'],
    changes: ['M', 'D'],
    oracle_class: 'baseline',
    severity: 'halt',
  },
  { type: 'lint_config', globs: ['.eslintrc*'], changes: ['A', 'M'], oracle_class: 'lint', severity: 'flag' },
  { type: 'broken', globs: ['x'] },
];

function files(wo: string, diff: string, rules: unknown = RULES): string[] {
  const dir = tempRoot('wo-oracle-');
  writeFileSync(join(dir, 'wo-01-x.md'), wo);
  writeFileSync(join(dir, 'diff.txt'), diff);
  writeFileSync(join(dir, 'rules.json'), JSON.stringify(rules));
  return [
    join(dir, 'wo-01-x.md'),
    '--diff-from',
    join(dir, 'diff.txt'),
    '--oracle-files',
    join(dir, 'rules.json'),
  ];
}
const check = (args: string[]) => runCli(['wo', 'oracle-check', ...args]);
const WO = '---\nid: wo-01\n---\nbody\n';

describe('wo oracle-check', () => {
  it('a modified watched baseline is tamper (halt); a flag rule is only recorded', () => {
    const r = check(files(WO, 'M\ttests/unit/a.snap\nA\t.eslintrc.json\nM\tsrc/a.ts\n'));
    assert.equal(r.code, 0);
    assert.deepEqual(r.json, {
      schema_version: '1.0',
      oracle_configured: true,
      tamper_detected: true,
      signals: [
        {
          type: 'test_baseline',
          path: 'tests/unit/a.snap',
          change: 'M',
          oracle_class: 'baseline',
          severity: 'halt',
          allowed_by_scope: false,
        },
        {
          type: 'lint_config',
          path: '.eslintrc.json',
          change: 'A',
          oracle_class: 'lint',
          severity: 'flag',
          allowed_by_scope: false,
        },
      ],
      halt_reason: 'oracle_tamper',
    });
  });

  it('a rename out of a watched folder is a delete there; a copy only adds', () => {
    const r = check(files(WO, 'R100\ttests/x/a.snap\tarchive/a.snap\nC90\ttests/x/b.snap\ttests/x/c.snap\n'));
    assert.deepEqual(
      r.json.signals.map((s: { path: string; change: string }) => [s.change, s.path]),
      [['D', 'tests/x/a.snap']],
    );
  });

  it('oracle_update.classes in a closed frontmatter allows the class: the halt becomes a flag', () => {
    const allowed =
      '---\nid: wo-01\noracle_update:\n  classes: [baseline]\n  reason: snapshots renamed\n---\n';
    let r = check(files(allowed, 'M\ttests/a.snap\n'));
    assert.equal(r.json.tamper_detected, false);
    assert.equal(r.json.signals[0].severity, 'flag');
    assert.equal(r.json.signals[0].allowed_by_scope, true);
    r = check(files('---\nid: wo-01\noracle_update:\n  classes: [baseline]\n', 'M\ttests/a.snap\n'));
    assert.equal(r.json.tamper_detected, true, 'no closing fence: no exemption');
  });

  it('no rules is an honest "not configured"; a non-array rule file or a missing input exits 2', () => {
    const args = files(WO, 'M\ttests/a.snap\n', []);
    assert.deepEqual(check(args).json, {
      schema_version: '1.0',
      oracle_configured: false,
      tamper_detected: false,
      signals: [],
      halt_reason: null,
    });
    assert.equal(check(files(WO, 'M\ta\n', { rules: [] })).code, 2);
    assert.equal(check(['/nonexistent.md', '--diff-from', '/nonexistent']).code, 2);
  });

  it('globs: * stays in a segment, ** spans segments', () => {
    assert.equal(oracleGlob('tests/*.snap').test('tests/a.snap'), true);
    assert.equal(oracleGlob('tests/*.snap').test('tests/x/a.snap'), false);
    assert.equal(oracleGlob('tests/**/*.snap').test('tests/a.snap'), true);
    assert.equal(oracleGlob('tests/**/*.snap').test('tests/x/y/a.snap'), true);
    assert.equal(oracleGlob('**').test('any/thing'), true);
  });
});
