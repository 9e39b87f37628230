// The CLI launcher (dist/cli.js, src/cli/launch.ts) starts the bundle from the V8 code cache the
// build wrote. The cache is an optimisation only: a missing, foreign or damaged cache must never
// change what a command does. Each case runs a copy of dist/ so the shared cache is untouched.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { copyFileSync, cpSync, existsSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { COMMANDS } from '../../../src/cli/command-table';
import { childEnv, sampleContract, tempRoot, writeJson } from '../helpers/cli';

const dist = resolve(__dirname, '../../../../dist');
const WRAP_HEAD = '(function (exports, require, module, __filename, __dirname) { ';

/** A copy of the CLI's files in a fresh folder, with the cache given (or none). */
function cliCopy(cache: Buffer | null): string {
  const dir = tempRoot('loop-ledger-code-cache-');
  for (const name of ['cli.js', 'cli-main.js']) copyFileSync(join(dist, name), join(dir, name));
  cpSync(join(dist, 'wo'), join(dir, 'wo'), { recursive: true });
  if (cache !== null) writeFileSync(join(dir, 'cli-main.cache'), cache);
  return dir;
}

function run(dir: string, args: string[], extraEnv: Record<string, string> = {}) {
  return spawnSync(process.execPath, [join(dir, 'cli.js'), ...args], {
    env: childEnv(extraEnv),
    encoding: 'utf8',
  });
}

const buildId = (): string => {
  const id = /^\/\*build:([0-9a-f]{32})\*\//.exec(readFileSync(join(dist, 'cli-main.js'), 'utf8'));
  assert.ok(id, 'the bundle starts with its build id');
  return id[1] as string;
};

/** The cache beside `bundle` is headed by the build id and V8 accepts it. */
function assertCacheAccepted(bundle: string, cacheFile: string): void {
  const cache = readFileSync(cacheFile);
  assert.equal(cache.subarray(0, 33).toString('latin1'), `${buildId()}\n`, cacheFile);
  // Checked in a child with the CLI's environment: V8 flags from NODE_OPTIONS (which the
  // build's training run drops, as agents' shells rarely set them) would change the verdict.
  const probe = `
    const { readFileSync } = require('node:fs');
    const { Script } = require('node:vm');
    const [bundle, cacheFile] = process.argv.slice(1);
    const script = new Script(${JSON.stringify(WRAP_HEAD)} + readFileSync(bundle, 'utf8') + '\\n});', {
      filename: bundle,
      cachedData: readFileSync(cacheFile).subarray(33),
    });
    process.stdout.write(String(script.cachedDataRejected));`;
  const r = spawnSync(process.execPath, ['-e', probe, bundle, cacheFile], {
    env: childEnv(),
    encoding: 'utf8',
  });
  assert.equal(r.stderr, '');
  assert.equal(r.stdout, 'false', `V8 accepted ${cacheFile}`);
}

/** What every variant must print alike: a refusal (exit 2) and the help text. */
function sameBehaviour(dir: string): void {
  const missing = run(dir, ['status', '--root', tempRoot(), '--session', 'nobody', '--json']);
  assert.equal(missing.status, 2, missing.stderr);
  assert.match(missing.stderr, /nobody/);
  const help = run(dir, ['--help']);
  assert.equal(help.status, 0);
  assert.match(help.stdout, /usage: loop-ledger/);
  const wo = run(dir, ['wo', 'risk-classify', '--help']);
  assert.notEqual(wo.status, null, 'the wo kernels load through the launcher (their own bundle, by require)');
  assert.doesNotMatch(wo.stderr, /ERR_VM_DYNAMIC_IMPORT|internal error/);
}

describe('cli: the code-cache launcher', () => {
  it('the build wrote a cache for this bundle that V8 accepts', () => {
    assertCacheAccepted(join(dist, 'cli-main.js'), join(dist, 'cli-main.cache'));
  });

  it('works the same with the cache, without it, with a damaged one and with another build’s', () => {
    const real = readFileSync(join(dist, 'cli-main.cache'));
    const id = buildId();
    const damaged = Buffer.concat([Buffer.from(`${id}\n`), Buffer.alloc(4096, 0x5a)]);
    const foreign = Buffer.concat([Buffer.from(`${'0'.repeat(32)}\n`), real.subarray(33)]);
    for (const cache of [real, null, damaged, foreign, Buffer.from('short')]) sameBehaviour(cliCopy(cache));
  });

  it('writes the cache only when the build asks for it, headed by the build id', () => {
    const dir = cliCopy(null);
    assert.equal(run(dir, ['--help']).status, 0);
    assert.equal(existsSync(join(dir, 'cli-main.cache')), false, 'an ordinary run writes nothing');
    assert.equal(run(dir, ['--help'], { LOOP_LEDGER_WRITE_CODE_CACHE: '1' }).status, 0);
    const written = readFileSync(join(dir, 'cli-main.cache'));
    assert.equal(written.subarray(0, 33).toString('latin1'), `${buildId()}\n`);
    assert.ok(written.length > 1000);
  });

  describe('a bundle per everyday command', () => {
    it('every everyday command has its own bundle, with a cache of this build that V8 accepts', () => {
      const names = Object.keys(COMMANDS).sort();
      const built = readdirSync(join(dist, 'cli-cmd'))
        .filter((f) => f.endsWith('.js'))
        .map((f) => f.slice(0, -3))
        .sort();
      assert.deepEqual(built, names);
      for (const name of names) {
        const bundle = join(dist, 'cli-cmd', `${name}.js`);
        assert.match(readFileSync(bundle, 'utf8'), new RegExp(`^/\\*build:${buildId()}\\*/`));
        assertCacheAccepted(bundle, join(dist, 'cli-cmd', `${name}.cache`));
      }
    });

    it('a command answers alike from its own bundle, from the full one, and with a damaged cache', () => {
      const full = cliCopy(null);
      const own = cliCopy(null);
      cpSync(join(dist, 'cli-cmd'), join(own, 'cli-cmd'), { recursive: true });
      const damaged = cliCopy(null);
      cpSync(join(dist, 'cli-cmd'), join(damaged, 'cli-cmd'), { recursive: true });
      for (const name of Object.keys(COMMANDS)) {
        writeFileSync(
          join(damaged, 'cli-cmd', `${name}.cache`),
          Buffer.concat([Buffer.from(`${buildId()}\n`), Buffer.alloc(512, 1)]),
        );
      }
      const contract = writeJson(join(tempRoot(), 'contract.json'), sampleContract());
      // Each case runs in a workspace of its own per variant, so a write in one cannot feed another.
      const cases: string[][] = [
        ['status', '--session', 'nobody', '--json'],
        ['status', '--help'],
        ['iterate', '--session', 's', '--outcome', 'sideways'],
        ['list', '--json'],
        ['validate', contract, '--json'],
        ['open', '--session', 's', '--contract', contract, '--json'],
        [
          'brief',
          '--session',
          's',
          '--diff-file',
          '/nonexistent/x.diff',
          '--verification-file',
          '/nonexistent/v',
        ],
      ];
      for (const args of cases) {
        const seen = [full, own, damaged].map((dir) => {
          const root = tempRoot();
          const r = run(dir, [args[0] as string, '--root', root, ...args.slice(1)]);
          return {
            status: r.status,
            stdout: r.stdout.split(root).join('<root>'),
            stderr: r.stderr.split(root).join('<root>'),
          };
        });
        assert.deepEqual(seen[1], seen[0], `own bundle: loop-ledger ${args.join(' ')}`);
        assert.deepEqual(seen[2], seen[0], `damaged cache: loop-ledger ${args.join(' ')}`);
      }
    });
  });
});
