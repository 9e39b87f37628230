// `loop-ledger validate` over loop-engineering contracts, as a real child process: the original
// validator's stdout report, exit codes 0/1/2, --strict, --json, and the JSON form.
import assert from 'node:assert/strict';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { runCli, sampleContract, tempRoot, writeJson, writeText } from '../helpers/cli';
import { contractText, VALID_FIELDS } from './helpers';
import { snakeKey } from '../../../src/engine/engineering/fields';

describe('CLI: validate a loop-engineering contract', () => {
  const root = tempRoot();
  const file = (name: string, text: string | Buffer) =>
    writeText(join(root, '.loop', 'contracts', name), text);

  it('prints the PASS summary and exits 0', () => {
    const path = file('ok.loop.md', contractText({ notes: 'kept' }));
    const r = runCli(['validate', '--strict', path]);
    assert.equal(r.code, 0, r.stderr);
    assert.equal(
      r.stdout,
      [
        'PASS loop contract',
        '- fields: 23',
        '- mode: goal',
        '- topology: single-agent',
        '- stop condition: Verifier passes or a finite cap fires.',
        '',
      ].join('\n'),
    );
    assert.equal(r.stderr, '');
  });

  it('prints FAIL with one finding per line, located findings on stderr, exit 1', () => {
    const path = file('bad.loop.md', contractText({ owner: 'TBD', verifier: 'self' }));
    const r = runCli(['validate', path]);
    assert.equal(r.code, 1);
    assert.equal(
      r.stdout,
      'FAIL loop contract\n- missing or empty field: owner\n- verifier cannot be the builder alone\n',
    );
    const lines = r.stderr.trim().split('\n');
    assert.equal(lines.length, 2);
    assert.match(lines[0]!, /bad\.loop\.md:8: missing or empty field: owner \[missing-field:owner\]$/);
    assert.match(lines[1]!, /bad\.loop\.md:15: verifier cannot be the builder alone \[self-verifier\]$/);
  });

  it('--strict adds the strict rules only when asked', () => {
    const path = file('strict.loop.md', contractText({ 'review budget': '1,500 changed lines' }));
    assert.equal(runCli(['validate', path]).code, 0);
    const r = runCli(['validate', '--strict', '--json', path]);
    assert.equal(r.code, 1);
    assert.deepEqual(r.json.findings, [
      {
        code: 'review-budget-over-1000',
        field: 'review_budget',
        line: 20,
        message: 'review budget should cap changed lines at 1000 or less',
      },
    ]);
  });

  it('--json gives {contract, valid, errors, findings}', () => {
    const path = file('json.loop.md', contractText({ mode: 'Sprint', objective: null }));
    const r = runCli(['validate', '--json', path], { cwd: root });
    assert.equal(r.code, 1);
    assert.deepEqual(Object.keys(r.json).sort(), ['contract', 'errors', 'findings', 'valid']);
    assert.equal(r.json.contract, path);
    assert.equal(r.json.valid, false);
    assert.deepEqual(r.json.errors, [
      'missing or empty field: objective',
      'mode must be Goal, Loop, Automation, or AutoResearch',
    ]);
    assert.deepEqual(
      r.json.findings.map((f: { code: string; field: string; line: number | null }) => [
        f.code,
        f.field,
        f.line,
      ]),
      [
        ['missing-field:objective', 'objective', null],
        ['invalid-mode', 'mode', 3],
      ],
    );
  });

  it('echoes the path as the original does (./a//b.loop.md → a/b.loop.md)', () => {
    file('echo.loop.md', contractText({}));
    const r = runCli(['validate', '--json', './.loop//contracts/echo.loop.md'], { cwd: root });
    assert.equal(r.json.contract, '.loop/contracts/echo.loop.md');
  });

  it('a missing file is exit 2, "contract does not exist"; a directory is exit 2, named as one', () => {
    const missing = runCli(['validate', join(root, 'nope.loop.md')]);
    assert.equal(missing.code, 2);
    assert.equal(missing.stdout, '');
    assert.equal(missing.stderr.trim(), `contract does not exist: ${join(root, 'nope.loop.md')}`);
    for (const name of ['dir.loop.md', 'dir.json', 'dir']) {
      const dir = join(root, name);
      mkdirSync(dir);
      const r = runCli(['validate', dir]);
      assert.equal(r.code, 2, name);
      assert.equal(r.stdout, '');
      const line = r.stderr.trim();
      assert.equal(line.split('\n').length, 1, line);
      assert.ok(line.includes(dir) && line.includes('is a directory'), line);
      assert.doesNotMatch(r.stderr, /does not exist/, name);
    }
  });

  it('text that is not UTF-8 is exit 2, named', () => {
    const path = file('latin1.loop.md', Buffer.from([0x4f, 0x3a, 0x20, 0xe9, 0x0a]));
    const r = runCli(['validate', path]);
    assert.equal(r.code, 2);
    assert.match(r.stderr, /latin1\.loop\.md: contract file is not valid UTF-8 text/);
  });

  it('a contract of near 1 MiB of pathological lines (long space runs, no colon, late colon) finishes', () => {
    // The original's line pattern backtracks for minutes over such lines; ours reads them in
    // linear time. (No clock here: a hang would hit mocha's timeout.)
    const run = ' '.repeat(150_000);
    const text = [
      `${run}x`,
      `a${run}b: c`,
      `${run}: c`,
      `Scope: a${run}y`,
      `Notes: ${' \t'.repeat(75_000)}z`,
      `Permission boundary: ${'no deploy, '.repeat(20_000)}; publish`,
    ].join('\n');
    const path = file('huge.loop.md', text);
    const r = runCli(['validate', '--json', path]);
    assert.equal(r.code, 1);
    // every field but scope and the boundary is missing; the last "publish" is not negated
    assert.equal(r.json.findings.length, 21);
    assert.equal(r.json.findings.at(-1).code, 'risky-boundary-needs-approval-rollback');
  });

  it('the JSON form validates with the same rules', () => {
    const body = Object.fromEntries(Object.entries(VALID_FIELDS).map(([k, v]) => [snakeKey(k), v]));
    const ok = writeJson(join(root, 'eng.json'), { kind: 'loop-engineering', ...body, max_iterations: 4 });
    assert.equal(runCli(['validate', '--strict', ok]).code, 0);
    const bad = writeJson(join(root, 'eng-bad.json'), {
      kind: 'loop-engineering',
      ...body,
      verifier: 'self',
      scope: 7,
      topology: null,
    });
    const r = runCli(['validate', '--json', bad]);
    assert.equal(r.code, 1);
    assert.deepEqual(
      r.json.findings.map((f: { code: string }) => f.code),
      ['invalid-type:scope', 'missing-field:scope', 'missing-field:topology', 'self-verifier'],
    );
    assert.ok(r.json.findings.every((f: { line: number | null }) => typeof f.line === 'number'));
  });

  it('work-loop JSON contracts validate exactly as before', () => {
    const path = writeJson(join(root, 'work.json'), sampleContract());
    const r = runCli(['validate', '--json', path]);
    assert.equal(r.code, 0, r.stderr);
    assert.equal(r.json.valid, true);
    assert.equal(r.json.dimensions, 2);
  });
});
