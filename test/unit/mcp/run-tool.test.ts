// `loop-ledger mcp --allow-run`: run_loop is offered only with the flag, runs the harness with the
// session contract's own checks and an agent config under the root, refuses any other command,
// and is cancelled by the client's cancellation of the request.
import * as assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { CLI, childEnv, readLedger, runCli } from '../helpers/cli';
import { FIXTURES, waitFor } from '../run/helpers';
import { call, connect, INITIALIZE, type Connected } from './client';
import { CHECK, repoWithContract } from './run-fixture';

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

const runDirs = (repo: string) =>
  existsSync(join(repo, '.loop', 'runs')) ? readdirSync(join(repo, '.loop', 'runs')) : [];

describe('mcp: run_loop (--allow-run)', function () {
  this.timeout(60_000);
  let mcp: Connected | undefined;
  afterEach(async () => mcp?.close());

  it('is not a tool without --allow-run: absent from tools/list, and a call is an unknown tool', async () => {
    const repo = repoWithContract();
    mcp = await connect(repo);
    const { tools } = await mcp.client.listTools();
    assert.ok(!tools.some((t) => t.name === 'run_loop'));
    await assert.rejects(
      mcp.client.callTool({ name: 'run_loop', arguments: { session: 's1', agent_config: 'agents.toml' } }),
      /unknown tool/,
    );
    assert.deepEqual(runDirs(repo), []);
  });

  it('with --allow-run: listed, runs the contract checks to PASS, its iteration in the ledger', async () => {
    const repo = repoWithContract();
    mcp = await connect(repo, ['--allow-run'], { LOOP_FIXTURE_MODE: 'pass' });
    const { tools } = await mcp.client.listTools();
    const tool = tools.find((t) => t.name === 'run_loop');
    assert.ok(tool);
    assert.equal(tool.annotations?.readOnlyHint, false);
    assert.equal(tool.annotations?.destructiveHint, true);
    const opened = await call(mcp.client, 'open_loop', { session: 's1', contract: 'run.loop-contract.json' });
    assert.equal(opened.isError, false, opened.text);
    const ran = await call(mcp.client, 'run_loop', { session: 's1', agent_config: 'agents.toml' });
    assert.equal(ran.isError, false, ran.text);
    assert.equal(ran.data.exit_code, 0);
    assert.equal(ran.data.final_verdict, 'PASS');
    assert.equal(ran.data.session, 's1');
    const ledger = readLedger(repo, 's1');
    assert.equal(ledger.iterations.length, 1);
    assert.equal(ledger.iterations[0].outcome, 'complete');
    assert.deepEqual(
      ledger.iterations[0].commands_run.includes(CHECK),
      true,
      JSON.stringify(ledger.iterations[0]),
    );
  });

  it('refuses a check that is not the contract’s, an agent config outside the root: exit 2, nothing run', async () => {
    const repo = repoWithContract();
    mcp = await connect(repo, ['--allow-run'], { LOOP_FIXTURE_MODE: 'pass' });
    await call(mcp.client, 'open_loop', { session: 's1', contract: 'run.loop-contract.json' });
    const before = JSON.stringify(readLedger(repo, 's1'));
    const foreign = await call(mcp.client, 'run_loop', {
      session: 's1',
      agent_config: 'agents.toml',
      checks: [CHECK, 'touch pwned'],
    });
    assert.equal(foreign.isError, true);
    assert.equal(foreign.exitCode, 2);
    assert.match(foreign.text, /checks: "touch pwned" is not an evidence command/);
    const outside = await call(mcp.client, 'run_loop', {
      session: 's1',
      agent_config: join(FIXTURES, 'agents.toml'),
    });
    assert.equal(outside.isError, true);
    assert.equal(outside.exitCode, 2);
    assert.match(outside.text, /agent_config: .* is outside the root/);
    const noContract = await call(mcp.client, 'run_loop', { session: 'nope', agent_config: 'agents.toml' });
    assert.equal(noContract.isError, true);
    assert.deepEqual(runDirs(repo), []);
    assert.ok(!existsSync(join(repo, 'pwned')));
    assert.equal(JSON.stringify(readLedger(repo, 's1')), before);
  });

  it('a cancelled request kills the run, writes cancelled.json and records pause', async () => {
    const repo = repoWithContract();
    const pidFile = join(repo, '.git', 'coder.pid');
    mcp = await connect(repo, ['--allow-run'], {
      LOOP_FIXTURE_MODE: 'coder-slow',
      FIXTURE_PID_FILE: pidFile,
    });
    await call(mcp.client, 'open_loop', { session: 's1', contract: 'run.loop-contract.json' });
    const controller = new AbortController();
    const running = mcp.client.callTool(
      { name: 'run_loop', arguments: { session: 's1', agent_config: 'agents.toml' } },
      undefined,
      { signal: controller.signal, timeout: 55_000 },
    );
    running.catch(() => undefined);
    await waitFor(() => existsSync(pidFile));
    controller.abort();
    await assert.rejects(running);
    const [runId] = runDirs(repo);
    assert.ok(runId);
    await waitFor(() => existsSync(join(repo, '.loop', 'runs', runId as string, 'cancelled.json')));
    await waitFor(() => readLedger(repo, 's1').status === 'closed');
    assert.equal(readLedger(repo, 's1').final_outcome, 'pause');
    // The agent's process group is gone, and the server still answers.
    const pid = Number(readFileSync(pidFile, 'utf8'));
    await waitFor(() => !alive(pid));
    const status = await call(mcp.client, 'session_status', { session: 's1' });
    assert.equal(status.isError, false, status.text);
  });

  it('a client gone mid-run: the run is cancelled and recorded before the server exits 0', async () => {
    const repo = repoWithContract();
    const pidFile = join(repo, '.git', 'coder.pid');
    assert.equal(
      runCli(['open', '--session', 's1', '--contract', 'run.loop-contract.json'], { cwd: repo }).code,
      0,
    );
    const child = spawn(process.execPath, [CLI, 'mcp', '--root', repo, '--allow-run'], {
      env: childEnv({ LOOP_FIXTURE_MODE: 'coder-slow', FIXTURE_PID_FILE: pidFile }),
    });
    child.stdin.write(JSON.stringify(INITIALIZE) + '\n');
    child.stdin.write('{"jsonrpc":"2.0","method":"notifications/initialized"}\n');
    const args = { session: 's1', agent_config: 'agents.toml' };
    child.stdin.write(
      JSON.stringify({
        jsonrpc: '2.0',
        id: 1,
        method: 'tools/call',
        params: { name: 'run_loop', arguments: args },
      }) + '\n',
    );
    await waitFor(() => existsSync(pidFile));
    const exit = new Promise((r) => child.on('exit', r));
    child.stdin.end();
    assert.equal(await exit, 0);
    const [runId] = runDirs(repo);
    assert.ok(existsSync(join(repo, '.loop', 'runs', runId as string, 'cancelled.json')));
    const ledger = readLedger(repo, 's1');
    assert.equal(ledger.final_outcome, 'pause');
    assert.equal(alive(Number(readFileSync(pidFile, 'utf8'))), false);
  });
});
