// The integration tier: the mocha suites in test/integration/ run inside the extension host of
// a real VS Code (code-server from .vscode-test/), with the extension loaded from source.
// Chromium opens the workbench with `extensionTestsPath` in the URL payload; the workbench
// reports the suite's output and exit code through the smoke-test driver's hooks.
// Always ends with one `TIER integration: N passed, M failed` line; exits non-zero on failure.
//   node scripts/run-integration.mjs [--no-build] [--grep PATTERN]
// --grep runs only the matching tests while working on one suite (it sets
// LOOP_LEDGER_INTEGRATION_GREP, which the suite's index reads; CI never sets either).
import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { format, parseArgs } from 'node:util';
import { chromium } from 'playwright-core';
import { chromiumLaunchOptions } from './chromium.mjs';
import { createTier } from './tier.mjs';
import { installCodeServer, missingSystemPackages, repoRoot, startCodeServer } from './vscode-server.mjs';

// An unknown option is an error, not ignored: a mistyped filter must not silently run the whole tier.
function readOptions() {
  try {
    return parseArgs({ options: { 'no-build': { type: 'boolean' }, grep: { type: 'string' } } }).values;
  } catch (error) {
    console.error(
      `run-integration: ${error.message} (usage: node scripts/run-integration.mjs [--no-build] [--grep PATTERN])`,
    );
    process.exit(2);
  }
}
const options = readOptions();
if (options.grep !== undefined) process.env.LOOP_LEDGER_INTEGRATION_GREP = options.grep;

const TIER = 'integration';
// The whole suite's budget inside the extension host: it grew past 180 s on a loaded 2-core machine
// (the checkpoint, overview, notification and agent-tool suites), so 15 minutes, still bounded.
const timeoutMs = Number(process.env.LOOP_LEDGER_INTEGRATION_TIMEOUT_MS ?? 900_000);
const testsEntry = join(repoRoot, 'out', 'test', 'integration', 'index.js');
const fixture = join(repoRoot, 'test', 'fixtures', 'vscode-workspace');
const { lap, watch, finish, run } = createTier(TIER);

// Workbench start-up chatter and the offline gallery's failures; shown only with DEBUG set.
const chatter = [
  /^(Resolving|Resolved) connection token/,
  /^Creating a socket/,
  /^\[(reconnection-grace-time|Service Worker|AgentHost:remote|AccountPolicyGate)\]/,
  /^Updating additional builtin extensions cache/,
  /ENOTFOUND open-vsx\.org/,
];
const isChatter = (line) => !process.env.DEBUG && chatter.some((pattern) => pattern.test(line));

const cleanups = [];

async function cleanup() {
  while (cleanups.length > 0) {
    try {
      await cleanups.pop()();
    } catch (error) {
      console.error(`cleanup: ${error instanceof Error ? error.message : error}`);
    }
  }
}

async function main() {
  if (!options['no-build']) {
    const build = spawnSync(process.execPath, [join(repoRoot, 'scripts', 'build.mjs')], { stdio: 'inherit' });
    if (build.status !== 0) return finish(false, 'build failed');
    lap('built');
  }
  for (const file of [join(repoRoot, 'dist', 'extension.js'), testsEntry]) {
    if (!existsSync(file)) return finish(false, `${file} is missing: run node scripts/build.mjs`);
  }
  const missing = missingSystemPackages();
  if (missing.length > 0) {
    const names = missing.map((m) => m.pkg).join(' ');
    return finish(false, `missing Debian packages: ${names} (apt-get install -y ${names})`);
  }
  await installCodeServer({ log: lap });

  const workspace = mkdtempSync(join(tmpdir(), 'loop-ledger-it-'));
  cleanups.push(() => rmSync(workspace, { recursive: true, force: true }));
  cpSync(fixture, workspace, { recursive: true });

  // The suites make and delete git repositories in the workspace; VS Code's own git extension
  // would keep running git in them after they are gone (and its EPIPE errors land in whichever
  // test runs then). Loop Ledger runs git itself, so the built-in one is switched off here.
  const server = await startCodeServer({
    folder: workspace,
    extraSettings: { 'git.enabled': false },
    smokeTestDriver: true,
    log: lap,
  });
  cleanups.push(() => server.stop());

  const browser = await chromium.launch(chromiumLaunchOptions());
  cleanups.push(() => browser.close());
  const page = await browser.newPage();
  if (process.env.DEBUG) page.on('console', (m) => console.log(`[browser ${m.type()}] ${m.text()}`));

  let reportExit;
  const exited = new Promise((resolveExit) => (reportExit = resolveExit));
  await page.exposeFunction('codeAutomationExit', (code) => reportExit(code));
  await page.exposeFunction('codeAutomationLog', (_type, args) => {
    const line = format(...(Array.isArray(args) ? args : [args]));
    watch(line);
    if (!isChatter(line)) console.log(line);
  });

  lap('opening the workbench with the test payload');
  // A busy shared machine can take well over playwright's default 30 s to serve the workbench.
  await page.goto(server.workbenchUrl({ extensionTestsPath: testsEntry }), { timeout: 180_000 });
  let timer;
  const timedOut = new Promise(
    (resolveTimeout) => (timer = setTimeout(() => resolveTimeout('timeout'), timeoutMs)),
  );
  const code = await Promise.race([exited, timedOut]);
  clearTimeout(timer);
  lap(
    `extension host finished: ${code === 'timeout' ? `no result within ${timeoutMs / 1000}s` : `exit code ${code}`}`,
  );
  if (code === 'timeout') {
    console.error(`last lines of the code-server log:\n${server.logTail(20)}`);
    return finish(false, 'the extension host never reported an exit code');
  }
  return finish(code === 0, code === 0 ? undefined : `extension host tests exited with ${code}`);
}

await run(main, cleanup);
