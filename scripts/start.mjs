// `npm start`: build, prepare the demo workspace in .demo/, start VS Code (code-server) with the
// extension loaded from source and print the URL to open. Ctrl-C stops the server.
//   node scripts/start.mjs [--fresh]    --fresh rebuilds .demo/ from scratch
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { prepareDemoWorkspace } from './demo-workspace.mjs';
import { installCodeServer, missingSystemPackages, repoRoot, startCodeServer } from './vscode-server.mjs';

const build = spawnSync(process.execPath, [join(repoRoot, 'scripts', 'build.mjs')], { stdio: 'inherit' });
if (build.status !== 0) {
  console.error('build failed');
  process.exit(1);
}

const demo = prepareDemoWorkspace(join(repoRoot, '.demo'), { fresh: process.argv.includes('--fresh') });
console.log(`${demo.created ? 'prepared' : 'reusing'} the demo workspace ${demo.root}`);

const missing = missingSystemPackages().filter((m) => m.pkg !== 'chromium');
if (missing.length > 0) {
  console.error(`missing Debian packages: ${missing.map((m) => m.pkg).join(' ')}`);
  process.exit(1);
}
await installCodeServer();
const server = await startCodeServer({ folder: demo.root });

let stopping = false;
async function shutdown(signal) {
  if (stopping) return;
  stopping = true;
  console.log(`\n${signal}: stopping code-server…`);
  await server.stop();
  process.exit(0);
}
process.on('SIGINT', () => shutdown('SIGINT'));
process.on('SIGTERM', () => shutdown('SIGTERM'));

console.log(`\nLoop Ledger is running in VS Code. Open:\n\n  ${server.workbenchUrl()}\n`);
if (spawnSync('code', ['--version'], { stdio: 'ignore' }).status === 0) {
  console.log(`A local VS Code works too: code --extensionDevelopmentPath=${repoRoot} ${demo.root}\n`);
}
console.log('Press Ctrl-C to stop.');

const result = await server.exited;
if (!stopping) {
  console.error(`code-server exited on its own (${result}); see ${server.logFile}`);
  process.exit(1);
}
