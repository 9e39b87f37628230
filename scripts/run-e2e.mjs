// The end-to-end tier: mocha runs out/test/e2e/*.test.js, whose tests drive a real VS Code
// workbench (code-server from .vscode-test/) in Chromium through playwright-core. Two phases:
// the *.test.js files against a server with workspace trust off, then *.untrusted.test.js
// against one with trust on, where every folder opens in Restricted Mode (a real untrusted window).
// Always ends with one `TIER e2e: N passed, M failed, K skipped` line; exits non-zero on failure.
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

/** Runs mocha over `files`; resolves to its exit code and the counts its reporter printed. */
function runMocha(files, extraArgs, env, phase) {
  const mocha = join(repoRoot, 'node_modules', 'mocha', 'bin', 'mocha.js');
  const options = [
    ['--no-config'],
    ['--no-package'],
    ['--color=false'],
    ['--reporter', join(repoRoot, 'scripts', 'mocha-tier-reporter.cjs')],
    ['--reporter-option', `tier=${phase}`],
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
    });
    child.on('close', (code, signal) => {
      const line = new RegExp(`^TIER ${phase}: (\\d+) passed, (\\d+) failed(?:, (\\d+) skipped)?$`, 'm').exec(
        tail,
      );
      const counts = line
        ? { passed: Number(line[1]), failed: Number(line[2]), skipped: Number(line[3] ?? 0) }
        : { passed: 0, failed: 1, skipped: 0 };
      resolveRun({ code: signal ? 1 : code, counts });
    });
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
  const phases = [
    {
      name: 'e2e-trusted',
      workspaceTrust: false,
      files: files.filter((f) => !f.endsWith('.untrusted.test.js')),
    },
    {
      name: 'e2e-untrusted',
      workspaceTrust: true,
      files: files.filter((f) => f.endsWith('.untrusted.test.js')),
    },
  ].filter((phase) => phase.files.length > 0);
  const missing = missingSystemPackages();
  if (missing.length > 0) {
    const names = missing.map((m) => m.pkg).join(' ');
    return finish(false, `missing Debian packages: ${names} (apt-get install -y ${names})`);
  }
  await installCodeServer({ log: lap });

  const total = { passed: 0, failed: 0, skipped: 0 };
  let exitCode = 0;
  for (const phase of phases) {
    server = await startCodeServer({
      folder: join(repoRoot, 'test', 'fixtures', 'vscode-workspace'),
      workspaceTrust: phase.workspaceTrust,
      smokeTestDriver: true,
      log: lap,
    });
    const env = {
      ...process.env,
      LOOP_LEDGER_SERVER_URL: server.baseUrl,
      LOOP_LEDGER_EXTENSION_PATH: repoRoot,
      LOOP_LEDGER_WORKSPACE_TRUST: phase.workspaceTrust ? 'on' : 'off',
    };
    const { code, counts } = await runMocha(
      phase.files,
      argv.filter((arg) => arg !== '--no-build'),
      env,
      phase.name,
    );
    lap(`${phase.name}: mocha exited with ${code}`);
    await stopServer();
    for (const key of Object.keys(total)) total[key] += counts[key];
    if (code !== 0) exitCode = code;
  }
  // One line for the whole tier, after the phases' own (test-all.mjs reads the last one).
  const line = `TIER ${TIER}: ${total.passed} passed, ${total.failed} failed, ${total.skipped} skipped`;
  console.log(line);
  watch(line);
  return finish(exitCode === 0, exitCode === 0 ? undefined : `mocha exited with ${exitCode}`);
}

async function stopServer() {
  const running = server;
  server = undefined;
  if (running) await running.stop();
}

await run(main, stopServer);
