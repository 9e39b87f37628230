// The tier reporter and the unit tier's config, run as real mocha child processes over fixture
// specs: a skip is counted (and fails under CI unless it names an allowed reason), and an
// `it.only` fails under CI instead of quietly running one test.
import * as assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { childEnv } from '../helpers/cli';

const repo = resolve(__dirname, '../../../..');
const mocha = join(repo, 'node_modules', 'mocha', 'bin', 'mocha.js');
const fixture = (name: string) => join(repo, 'test', 'fixtures', 'mocha', name);
const reporter = join(repo, 'scripts', 'mocha-tier-reporter.cjs');

function runMocha(args: string[], ci: boolean) {
  const env = childEnv();
  delete env.CI;
  if (ci) env.CI = 'true';
  const r = spawnSync(process.execPath, [mocha, ...args], { cwd: repo, env, encoding: 'utf8' });
  const tier = /^TIER fixture: .*$/m.exec(r.stdout)?.[0];
  return { code: r.status, stdout: r.stdout, stderr: r.stderr, tier };
}

const withReporter = (spec: string) => [
  '--no-config',
  '--reporter',
  reporter,
  '--reporter-option',
  'tier=fixture',
  fixture(spec),
];

describe('test tiers tell the truth', function () {
  this.timeout(30_000);

  it('counts skipped tests in the TIER line outside CI', () => {
    const r = runMocha(withReporter('skips.cjs'), false);
    assert.equal(r.tier, 'TIER fixture: 1 passed, 1 failed, 3 skipped');
    assert.equal(r.code, 1);
  });

  it('under CI fails every skip that names no allowed reason', () => {
    const r = runMocha(withReporter('skips.cjs'), true);
    assert.equal(r.tier, 'TIER fixture: 1 passed, 3 failed, 1 skipped');
    assert.match(r.stdout, /skipped under CI: fixture skips with no reason \(no reason named\)/);
    assert.match(r.stdout, /reason "flaky" is not allowed/);
    assert.equal(r.code, 3, 'the refused skips are in the exit code');
  });

  it('accepts a hook that skips its suite for an allowed reason', () => {
    const r = runMocha(withReporter('hook-skip.cjs'), true);
    assert.equal(r.tier, 'TIER fixture: 0 passed, 0 failed, 2 skipped');
    assert.equal(r.code, 0);
  });

  describe('the unit config (.mocharc.cjs)', () => {
    let dir: string;
    before(() => {
      dir = mkdtempSync(join(tmpdir(), 'mocharc-'));
      // The project's config with only the spec list swapped for the fixture.
      writeFileSync(
        join(dir, 'config.cjs'),
        `module.exports = { ...require(${JSON.stringify(join(repo, '.mocharc.cjs'))}), spec: [${JSON.stringify(fixture('only.cjs'))}] };\n`,
      );
    });
    after(() => rmSync(dir, { recursive: true, force: true }));

    it('refuses it.only under CI', () => {
      const r = runMocha(['--config', join(dir, 'config.cjs')], true);
      assert.notEqual(r.code, 0);
      assert.match(r.stderr, /ERR_MOCHA_FORBIDDEN_EXCLUSIVITY|`\.only` forbidden/);
    });

    it('allows it.only on a developer machine', () => {
      const r = runMocha(['--config', join(dir, 'config.cjs')], false);
      assert.equal(r.code, 0, r.stderr);
      assert.match(r.stdout, /1 passing/);
    });
  });
});
