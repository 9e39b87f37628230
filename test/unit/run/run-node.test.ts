// `loop-ledger run --node FILE` (the DAG node runner) and `loop-ledger validate` over receipts.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { CLI, childEnv, tempRoot, writeJson } from '../helpers/cli';
import { AGENTS, readJson, runSample, sampleRepo, validate } from './helpers';

function node(
  repo: string,
  spec: unknown,
  extra: string[] = ['--print-json'],
  env: Record<string, string> = {},
) {
  const file = writeJson(join(tempRoot('node-'), 'node.json'), spec);
  const r = spawnSync(process.execPath, [CLI, 'run', '--node', file, '--root', repo, ...extra], {
    env: childEnv(env),
    encoding: 'utf8',
  });
  return { code: r.status, stderr: r.stderr, json: JSON.parse(r.stdout) };
}

const SPEC = {
  node_type: 'loop',
  node_id: 'implement_parse_duration',
  objective: 'Implement parseDuration',
  allowed_globs: ['sample-target/src/time/**', 'sample-target/tests/**'],
  required_changed_globs: ['sample-target/src/time/parse_duration.mjs'],
  checks: ['node sample-target/tests/check.mjs'],
  max_attempts: 2,
  check_timeout: 60,
  agent_config: AGENTS,
  worktree: { mode: 'existing' },
};

describe('run: the node runner and receipt validation', function () {
  this.timeout(60_000);

  it('PASS: loop.scillm_node_result.v1 with the validator’s verdict', () => {
    const repo = sampleRepo();
    const r = node(repo, SPEC, ['--print-json'], { LOOP_FIXTURE_MODE: 'pass' });
    assert.equal(r.code, 0, r.stderr);
    assert.equal(r.json.schema, 'loop.scillm_node_result.v1');
    assert.equal(r.json.status, 'PASS');
    assert.equal(r.json.loop_final_verdict, 'PASS');
    assert.equal(r.json.receipt_valid, true);
    assert.equal(r.json.required_changed_globs_satisfied, true);
    assert.equal(r.json.loop_exit_code, 0);
    assert.equal(r.json.validator_stdout, 'LOOP RECEIPT VALID: PASS after 1 attempt(s)\n');
    assert.ok(r.json.final_receipt.startsWith(repo), 'absolute receipt path');
    assert.equal(readJson(r.json.final_receipt).run_id, r.json.loop_run_id);
  });

  it('a required glob nothing matched blocks, even over a loop PASS; without --print-json only {node_id, status}', () => {
    const repo = sampleRepo();
    const r = node(
      repo,
      { ...SPEC, required_changed_globs: ['sample-target/src/other/**'] },
      ['--print-json'],
      {
        LOOP_FIXTURE_MODE: 'pass',
      },
    );
    assert.equal(r.code, 1);
    assert.equal(r.json.status, 'BLOCKED');
    assert.equal(r.json.stop_reason, 'REQUIRED_CHANGED_GLOB_MISSING');
    assert.equal(r.json.loop_final_verdict, 'PASS');
    assert.equal(r.json.receipt_valid, true);
    assert.deepEqual(r.json.missing_required_changed_globs, ['sample-target/src/other/**']);
    const brief = node(sampleRepo(), SPEC, [], { LOOP_FIXTURE_MODE: 'pass' });
    assert.deepEqual(brief.json, { node_id: 'implement_parse_duration', status: 'PASS' });
  });

  it('a bad node is exit 2 with node_id "unknown" and the key named, printed in full', () => {
    const r = node(sampleRepo(), { node_id: 'bad' }, []);
    assert.equal(r.code, 2);
    assert.equal(r.json.node_id, 'unknown');
    assert.equal(r.json.stop_reason, 'INFRASTRUCTURE_FAILURE');
    assert.match(r.json.stderr, /node\.objective/);
    for (const [spec, key] of [
      [{ ...SPEC, checks: [] }, 'node.checks'],
      [{ ...SPEC, max_attempts: true }, 'node.max_attempts'],
      [{ ...SPEC, worktree: { mode: 'new' } }, 'node.worktree.mode'],
      [{ ...SPEC, require_clean: 'yes' }, 'node.require_clean'],
    ] as const) {
      const bad = node(sampleRepo(), spec, []);
      assert.equal(bad.code, 2);
      assert.match(bad.json.stderr, new RegExp(key.replace('.', '\\.')));
    }
  });

  it('validate FILE recognises a receipt by schema: valid ones exit 0, broken ones list every error, exit 1', () => {
    const repo = sampleRepo();
    const r = runSample(repo, 'pass');
    const file = join(repo, r.json.artifacts.run_dir, 'final-receipt.json');
    const ok = validate(file);
    assert.equal(ok.code, 0);
    assert.equal(ok.stdout, 'LOOP RECEIPT VALID: PASS after 1 attempt(s)\n');
    const receipt = readJson(file);
    const broken = join(tempRoot('rc-'), 'receipt.json');
    writeFileSync(
      broken,
      JSON.stringify({ ...receipt, checks: [{ ...receipt.checks[0], returncode: 1 }], attempts_used: true }),
    );
    const bad = validate(broken);
    assert.equal(bad.code, 1);
    const lines = bad.stderr.trim().split('\n');
    assert.equal(lines[0], `${broken}: LOOP RECEIPT INVALID`);
    assert.ok(lines.includes('- receipt.attempts_used: expected non-negative integer'));
    assert.ok(
      lines.includes('- receipt.final_verdict: PASS requires at least one check and all checks returncode 0'),
    );
    const noChecks = join(tempRoot('rc-'), 'receipt.json');
    writeFileSync(noChecks, JSON.stringify({ ...receipt, checks: [] }));
    assert.equal(validate(noChecks).code, 1);
    // A contract still gets the contract rules.
    const contract = writeJson(join(tempRoot('c-'), 'c.json'), { purpose: 'x' });
    const c = validate(contract);
    assert.equal(c.code, 1);
    assert.doesNotMatch(c.stderr, /LOOP RECEIPT/);
  });
});

describe('run: the shipped starter config', function () {
  this.timeout(60_000);

  it('examples/run/agents.fake.toml passes on a repository with a check', () => {
    const repo = sampleRepo();
    const config = join(__dirname, '../../../../examples/run/agents.fake.toml');
    const r = spawnSync(
      process.execPath,
      [
        CLI,
        'run',
        '--objective',
        'Write the demo note',
        '--agent-config',
        config,
        '--allow',
        'docs/**',
        '--check',
        'test -f docs/loop-demo.md',
        '--print-json',
      ],
      { cwd: repo, env: childEnv(), encoding: 'utf8' },
    );
    assert.equal(r.status, 0, r.stderr);
    const receipt = JSON.parse(r.stdout);
    assert.equal(receipt.final_verdict, 'PASS');
    assert.deepEqual(receipt.changed_files, ['docs/loop-demo.md']);
  });
});
