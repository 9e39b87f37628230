// The MCP Inspector's CLI (a client we did not write) lists and calls the server's tools.
import * as assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { join, resolve } from 'node:path';
import { CLI, childEnv, sampleContract, tempRoot, writeJson } from '../helpers/cli';

const REPO = resolve(__dirname, '../../../..');
const INSPECTOR = join(REPO, 'node_modules/@modelcontextprotocol/inspector-cli/build/index.js');

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Json = any;

function inspect(
  root: string,
  args: string[],
  serverArgs: string[] = [],
): { code: number | null; json: Json } {
  // The inspector finds its own package.json by a path it checks against the working folder:
  // any folder one level under a package (here out/) makes that check land on its own file.
  const r = spawnSync(
    process.execPath,
    [INSPECTOR, process.execPath, CLI, 'mcp', '--root', root, ...serverArgs, ...args],
    { cwd: join(REPO, 'out'), env: childEnv(), encoding: 'utf8', timeout: 30_000 },
  );
  let json: unknown;
  try {
    json = JSON.parse(r.stdout);
  } catch {
    throw new Error(`inspector printed no JSON (exit ${r.status}): ${r.stdout}${r.stderr}`);
  }
  return { code: r.status, json };
}

describe('mcp: the MCP Inspector CLI as the client', function () {
  this.timeout(60_000);

  it('lists the tools (run_loop only with --allow-run), calls one, and sees a refusal as isError', () => {
    const root = tempRoot('mcp-inspector-');
    writeJson(join(root, 'c.loop-contract.json'), sampleContract());
    const names = inspect(root, ['--method', 'tools/list']).json.tools.map((t: { name: string }) => t.name);
    assert.equal(names.length, 11);
    assert.ok(names.includes('record_iteration') && !names.includes('run_loop'));
    const withRun = inspect(root, ['--method', 'tools/list'], ['--allow-run']).json.tools;
    assert.ok(withRun.some((t: { name: string }) => t.name === 'run_loop'));

    const opened = inspect(root, [
      '--method',
      'tools/call',
      '--tool-name',
      'open_loop',
      '--tool-arg',
      'session=s1',
      '--tool-arg',
      'contract=c.loop-contract.json',
    ]);
    assert.equal(opened.code, 0);
    assert.equal(opened.json.structuredContent.session, 's1');
    assert.equal(opened.json.structuredContent.epoch, 1);
    const status = inspect(root, [
      '--method',
      'tools/call',
      '--tool-name',
      'session_status',
      '--tool-arg',
      'session=s1',
    ]);
    assert.equal(status.json.structuredContent.exit_code, 4);
    const bad = inspect(root, [
      '--method',
      'tools/call',
      '--tool-name',
      'session_status',
      '--tool-arg',
      'session=../x',
    ]);
    assert.equal(bad.json.isError, true);
    assert.equal(bad.json._meta['loop-ledger/exit_code'], 2);
  });
});
