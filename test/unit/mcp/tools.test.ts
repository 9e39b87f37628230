// `loop-ledger mcp` through a real MCP client: the tool definitions (pinned), and each tool's
// success and refusals, checked against what the CLI does on the same ledger.
import * as assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import {
  ledgerPath,
  readLedger,
  runCli,
  sampleContract,
  tempRoot,
  writeJson,
  writeText,
} from '../helpers/cli';
import { call, connect, type Connected } from './client';

const SNAPSHOT = resolve(__dirname, '../../../../test/unit/mcp/tool-definitions.snapshot.json');

describe('mcp: tools', function () {
  this.timeout(60_000);
  let root: string;
  let mcp: Connected;

  before(async () => {
    root = tempRoot('mcp-tools-');
    writeJson(join(root, 'c.loop-contract.json'), sampleContract());
    mcp = await connect(root);
  });
  after(async () => mcp?.close());

  it('initializes as loop-ledger with tools and subscribable resources', () => {
    assert.equal(mcp.client.getServerVersion()?.name, 'loop-ledger');
    const caps = mcp.client.getServerCapabilities();
    assert.ok(caps?.tools);
    assert.equal(caps?.resources?.subscribe, true);
  });

  it('lists at most twelve tools, each titled, one-line, typed both ways, annotated (pinned)', async () => {
    const { tools } = await mcp.client.listTools();
    assert.ok(tools.length > 0 && tools.length <= 12);
    for (const tool of tools) {
      assert.ok(tool.title, tool.name);
      assert.ok(tool.description && !tool.description.includes('\n'), tool.name);
      assert.equal(tool.inputSchema.type, 'object');
      assert.equal(tool.outputSchema?.type, 'object', tool.name);
      for (const hint of ['readOnlyHint', 'destructiveHint', 'idempotentHint'] as const)
        assert.equal(typeof tool.annotations?.[hint], 'boolean', `${tool.name} ${hint}`);
    }
    // Compared as data: the file is kept in the repository's format (prettier).
    if (process.env.UPDATE_SNAPSHOTS === '1') writeFileSync(SNAPSHOT, JSON.stringify(tools, null, 2) + '\n');
    assert.deepEqual(
      tools,
      JSON.parse(readFileSync(SNAPSHOT, 'utf8')),
      'tool definitions changed: UPDATE_SNAPSHOTS=1 rewrites the snapshot',
    );
    // The budget every conversation pays: about 4 characters a token.
    assert.ok(JSON.stringify(tools).length / 4 <= 2500, `${JSON.stringify(tools).length / 4} tokens`);
  });

  it('validate_contract: valid, invalid (exit 1 as data), unreadable and outside the root refused', async () => {
    const ok = await call(mcp.client, 'validate_contract', { path: 'c.loop-contract.json' });
    assert.deepEqual(
      [ok.isError, ok.data.valid, ok.data.exit_code, ok.data.kind],
      [false, true, 0, 'work-loop'],
    );
    writeJson(join(root, 'bad.loop-contract.json'), sampleContract({ iteration_limit: 0 }));
    const bad = await call(mcp.client, 'validate_contract', { path: 'bad.loop-contract.json' });
    const cli = runCli(['validate', 'bad.loop-contract.json'], { cwd: root });
    assert.equal(bad.data.valid, false);
    assert.equal(bad.data.exit_code, cli.code);
    assert.ok(bad.data.findings.length > 0);
    for (const finding of bad.data.findings) assert.ok(cli.stderr.includes(finding), finding);
    const missing = await call(mcp.client, 'validate_contract', { path: 'nope.json' });
    assert.deepEqual([missing.isError, missing.exitCode], [true, 2]);
    const outside = await call(mcp.client, 'validate_contract', { path: '../../etc/passwd' });
    assert.deepEqual([outside.isError, outside.exitCode], [true, 2]);
    assert.match(outside.text, /^refused \(exit 2\): path: .* is outside the root/);
  });

  it('open_loop, record_iteration, session_status, close_loop: the CLI’s results and refusals', async () => {
    const opened = await call(mcp.client, 'open_loop', { session: 's1', contract: 'c.loop-contract.json' });
    assert.deepEqual(opened.data, { session: 's1', status: 'open', epoch: 1, next_iteration: 1 });
    const again = await call(mcp.client, 'open_loop', { session: 's1', contract: 'c.loop-contract.json' });
    const cliAgain = runCli(['open', '--session', 's1', '--contract', 'c.loop-contract.json'], { cwd: root });
    assert.deepEqual([again.isError, again.exitCode], [true, cliAgain.code]);
    assert.ok(cliAgain.stderr.includes(again.result._meta?.['loop-ledger/findings'] as string));
    const noContract = await call(mcp.client, 'open_loop', { session: 's2' });
    assert.deepEqual([noContract.exitCode, existsSync(ledgerPath(root, 's2'))], [2, false]);

    const empty = await call(mcp.client, 'session_status', { session: 's1' });
    assert.deepEqual([empty.isError, empty.data.exit_code, empty.data.iterations], [false, 4, 0]);

    const rec = await call(mcp.client, 'record_iteration', {
      session: 's1',
      outcome: 'continue',
      actions: ['a1'],
      note: 'first',
      files_changed: ['src/x.ts'],
    });
    assert.deepEqual(
      [rec.isError, rec.data.n, rec.data.outcome, rec.data.note],
      [false, 1, 'continue', 'first'],
    );
    const before = readFileSync(ledgerPath(root, 's1'), 'utf8');
    const dup = await call(mcp.client, 'record_iteration', {
      session: 's1',
      outcome: 'continue',
      actions: ['a1'],
    });
    const cliDup = runCli(['iterate', '--session', 's1', '--outcome', 'continue', '--action', 'a1'], {
      cwd: root,
    });
    assert.deepEqual([dup.isError, dup.exitCode, cliDup.code], [true, 5, 5]);
    for (const f of dup.result._meta?.['loop-ledger/findings'] as string[])
      assert.ok(cliDup.stderr.includes(f), f);
    assert.equal(readFileSync(ledgerPath(root, 's1'), 'utf8'), before, 'nothing written on a refusal');

    const malformed = await call(mcp.client, 'record_iteration', {
      session: 's1',
      outcome: 'maybe',
      eligible_count: -1,
    });
    assert.deepEqual([malformed.isError, malformed.exitCode], [true, 2]);
    assert.match(malformed.text, /outcome: /);
    assert.match(malformed.text, /eligible_count: /);
    const outside = await call(mcp.client, 'record_iteration', {
      session: 's1',
      outcome: 'continue',
      evidence_paths: ['/etc/passwd'],
    });
    assert.deepEqual([outside.exitCode, readFileSync(ledgerPath(root, 's1'), 'utf8')], [2, before]);
    const badId = await call(mcp.client, 'session_status', { session: '../s1' });
    assert.equal(badId.exitCode, runCli(['status', '--session', '../s1'], { cwd: root }).code);

    const status = await call(mcp.client, 'session_status', { session: 's1' });
    const cliStatus = runCli(['status', '--session', 's1', '--json'], { cwd: root });
    assert.equal(status.data.exit_code, 0);
    const { exit_code: _code, completed_actions_count: count, ...rest } = status.data;
    assert.deepEqual(rest, cliStatus.json);
    assert.equal(count, 1);

    const closed = await call(mcp.client, 'close_loop', { session: 's1', outcome: 'pause', note: 'later' });
    assert.deepEqual(closed.data, { session: 's1', status: 'closed', final_outcome: 'pause' });
    const closedAgain = await call(mcp.client, 'close_loop', { session: 's1', outcome: 'stop' });
    assert.deepEqual([closedAgain.exitCode, readLedger(root, 's1').final_outcome], [3, 'pause']);
    const resumed = await call(mcp.client, 'resume_loop', { session: 's1' });
    assert.deepEqual(
      [resumed.data.status, resumed.data.next_iteration, resumed.data.resumed],
      ['open', 2, 1],
    );
    const unknown = await call(mcp.client, 'resume_loop', { session: 'nobody' });
    assert.equal(unknown.exitCode, 2);
  });

  it('score: the verdict with exit_code (6 for a breached gate); a partial measurement refused', async () => {
    const pass = await call(mcp.client, 'score', {
      session: 's1',
      measures: { 'hard-one': 0, 'soft-one': 100 },
    });
    const cli = runCli(
      ['score', '--session', 's1', '--measure', 'hard-one=0', '--measure', 'soft-one=100', '--json'],
      { cwd: root },
    );
    assert.equal(pass.data.exit_code, cli.code);
    assert.equal(pass.data.weighted_total, cli.json.weighted_total);
    const gate = await call(mcp.client, 'score', {
      session: 's1',
      measures: { 'hard-one': 50, 'soft-one': 100 },
    });
    assert.deepEqual([gate.isError, gate.data.exit_code, gate.data.verdict], [false, 6, 'fail']);
    const partial = await call(mcp.client, 'score', { session: 's1', measures: { 'soft-one': 1 } });
    assert.equal(partial.isError, true);
    assert.equal(
      partial.exitCode,
      runCli(['score', '--session', 's1', '--measure', 'soft-one=1'], { cwd: root }).code,
    );
  });

  it('list_sessions pages by id with a cursor', async () => {
    for (const s of ['s3', 's4', 's5'])
      assert.equal(
        (await call(mcp.client, 'open_loop', { session: s, contract: 'c.loop-contract.json' })).isError,
        false,
      );
    const seen: string[] = [];
    let cursor: string | undefined;
    do {
      const page = await call(mcp.client, 'list_sessions', { limit: 2, ...(cursor ? { cursor } : {}) });
      assert.ok(page.data.sessions.length <= 2);
      seen.push(...page.data.sessions.map((s: { session: string }) => s.session));
      cursor = page.data.next_cursor ?? undefined;
    } while (cursor);
    assert.deepEqual(seen, ['s1', 's3', 's4', 's5']);
  });

  it('assemble_brief from a diff file and from a git range; brief_summary; the packet as a resource', async () => {
    const git = (...args: string[]) =>
      execFileSync('git', ['-c', 'user.name=t', '-c', 'user.email=t@t', ...args], {
        cwd: root,
        encoding: 'utf8',
      });
    git('init', '-q');
    writeText(join(root, 'src/a.txt'), 'one\n');
    git('add', 'src/a.txt');
    git('commit', '-qm', 'one');
    writeText(join(root, 'src/a.txt'), 'two\n');
    git('commit', '-qam', 'two');
    const fromGit = await call(mcp.client, 'assemble_brief', {
      session: 's3',
      git_range: 'HEAD~1..HEAD',
      verification: 'tests: 3 passed',
    });
    assert.equal(fromGit.isError, false, fromGit.text);
    assert.deepEqual([fromGit.data.scope, fromGit.data.files], ['verified', ['src/a.txt']]);
    assert.equal(readLedger(root, 's3').pending_brief.brief_id, fromGit.data.brief_id);

    writeText(join(root, 'change.diff'), git('diff', 'HEAD~1..HEAD'));
    const fromFile = await call(mcp.client, 'assemble_brief', {
      session: 's4',
      diff_file: 'change.diff',
      verification: 'ok',
    });
    const cli = runCli(
      [
        'brief',
        '--session',
        's5',
        '--diff-file',
        'change.diff',
        '--verification-file',
        '/dev/stdin',
        '--json',
      ],
      {
        cwd: root,
        input: 'ok',
      },
    );
    assert.equal(fromFile.isError, false, fromFile.text);
    assert.equal(fromFile.data.scope, cli.json.scope.provenance);
    assert.deepEqual(fromFile.data.files, cli.json.scope.diff_paths);

    const summary = await call(mcp.client, 'brief_summary', { session: 's3' });
    assert.deepEqual(
      [summary.data.available, summary.data.pending, summary.data.brief_id],
      [true, true, fromGit.data.brief_id],
    );
    const packet = await mcp.client.readResource({ uri: fromGit.data.uri });
    const parsed = JSON.parse((packet.contents[0] as { text: string }).text);
    assert.equal(parsed.brief_id, fromGit.data.brief_id);
    assert.match(parsed.diff, /^-one$/m);

    const both = await call(mcp.client, 'assemble_brief', {
      session: 's3',
      git_range: 'HEAD~1..HEAD',
      diff_file: 'change.diff',
      verification: 'x',
    });
    assert.deepEqual([both.exitCode, both.text.includes('git_range, diff_file')], [2, true]);
    const badRange = await call(mcp.client, 'assemble_brief', {
      session: 's3',
      git_range: '--output=/tmp/x',
      verification: 'x',
    });
    assert.equal(badRange.exitCode, 2);
    const outside = await call(mcp.client, 'assemble_brief', {
      session: 's3',
      diff_file: '/etc/hostname',
      verification: 'x',
    });
    assert.equal(outside.exitCode, 2);
    assert.equal(
      readLedger(root, 's3').pending_brief.brief_id,
      fromGit.data.brief_id,
      'a refusal arms nothing',
    );
  });
});
