// The end-to-end tier: mocha runs out/test/e2e/*.test.js, whose tests drive a real VS Code
// workbench (code-server from .vscode-test/) in Chromium through playwright-core.
// Always ends with one `TIER e2e: N passed, M failed` line; exits non-zero on failure.
//   node scripts/run-e2e.mjs [--no-build] [mocha args, e.g. --grep smoke]
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { createTier } from './tier.mjs';
import { installCodeServer, missingSystemPackages, repoRoot, startCodeServer } from './vscode-server.mjs';

const TIER = 'e2e';
const testsDir = join(repoRoot, 'out', 'test', 'e2e');
const { lap, watch, finish, run } = createTier(TIER);

let server;

function runMocha(files, extraArgs, env) {
  const mocha = join(repoRoot, 'node_modules', 'mocha', 'bin', 'mocha.js');
  const options = [
    ['--no-config'],
    ['--no-package'],
    ['--color=false'],
    ['--reporter', join(repoRoot, 'scripts', 'mocha-tier-reporter.cjs')],
    ['--reporter-option', `tier=${TIER}`],
    ['--timeout', process.env.LOOP_LEDGER_E2E_TIMEOUT_MS ?? '180000'],
    // A stray `.only` must fail CI rather than run one test and report green.
    ...(process.env.CI ? [['--forbid-only']] : []),
  ];
  const args = [mocha, ...options.flat(), ...extraArgs, ...files];
  return new Promise((resolveRun) => {
    const child = spawn(process.execPath, args, { cwd: repoRoot, env, stdio: ['ignore', 'pipe', 'inherit'] });
    let tail = '';
    child.stdout.on('data', (chunk) => {
      process.stdout.write(chunk);
      tail = (tail + chunk.toString()).slice(-2048);
      watch(tail);
    });
    child.on('close', (code, signal) => resolveRun(signal ? 1 : code));
  });
}

async function main() {
  const argv = process.argv.slice(2);
  if (!argv.includes('--no-build')) {
    const build = spawnSync(process.execPath, [join(repoRoot, 'scripts', 'build.mjs')], { stdio: 'inherit' });
    if (build.status !== 0) return finish(false, 'build failed');
    lap('built');
  }
  const files = existsSync(testsDir)
    ? readdirSync(testsDir)
        .filter((name) => name.endsWith('.test.js'))
        .sort()
        .map((name) => join(testsDir, name))
    : [];
  if (files.length === 0) return finish(false, `no tests in ${testsDir}: run node scripts/build.mjs`);
  const missing = missingSystemPackages();
  if (missing.length > 0) {
    const names = missing.map((m) => m.pkg).join(' ');
    return finish(false, `missing Debian packages: ${names} (apt-get install -y ${names})`);
  }
  await installCodeServer({ log: lap });
  server = await startCodeServer({
    folder: join(repoRoot, 'test', 'fixtures', 'vscode-workspace'),
    log: lap,
  });

  const env = {
    ...process.env,
    LOOP_LEDGER_SERVER_URL: server.baseUrl,
    LOOP_LEDGER_EXTENSION_PATH: repoRoot,
  };
  const code = await runMocha(
    files,
    argv.filter((arg) => arg !== '--no-build'),
    env,
  );
  lap(`mocha exited with ${code}`);
  return finish(code === 0, code === 0 ? undefined : `mocha exited with ${code}`);
}

async function stopServer() {
  const running = server;
  server = undefined;
  if (running) await running.stop();
}

await run(main, stopServer);
