// What a real deployment throws at the server: a 10,000-iteration ledger paged while others
// append, several clients racing on one session, garbage, a 10 MB message, a client that vanishes.
import * as assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  ledgerPath,
  readLedger,
  runCli,
  runCliAsync,
  sampleContract,
  tempRoot,
  writeJson,
} from '../helpers/cli';
import { call, connect, INITIALIZE, rawServer, replies } from './client';

/** Characters per token, roughly; the ceiling is 25,000 tokens a result. */
const MAX_RESULT_CHARS = 25_000 * 4;

/** A session with `count` iterations, made by the CLI once and grown in the file (not 10,000 CLI calls). */
function bigSession(root: string, session: string, count: number): void {
  writeJson(join(root, 'c.json'), sampleContract({ iteration_limit: count * 2 }));
  assert.equal(runCli(['open', '--session', session, '--contract', 'c.json'], { cwd: root }).code, 0);
  assert.equal(
    runCli(['iterate', '--session', session, '--outcome', 'continue', '--action', 'a1'], { cwd: root }).code,
    0,
  );
  const ledger = readLedger(root, session);
  const first = ledger.iterations[0];
  for (let n = 2; n <= count; n++) {
    ledger.iterations.push({ ...first, n, actions: [`a${n}`] });
    ledger.completed_actions.push(`a${n}`);
  }
  // The epochs list holds closed epochs only: an open first epoch has none to keep in step.
  assert.deepEqual(ledger.epochs, []);
  writeFileSync(ledgerPath(root, session), JSON.stringify(ledger, null, 2) + '\n');
}

describe('mcp: robustness', function () {
  this.timeout(120_000);

  it('pages 10,000 iterations newest first, every page small, stable while the CLI appends', async () => {
    const root = tempRoot('mcp-paging-');
    bigSession(root, 'big', 10_000);
    const mcp = await connect(root);
    try {
      const seen: number[] = [];
      let cursor: string | undefined;
      let appended = false;
      do {
        const page = await call(mcp.client, 'list_iterations', {
          session: 'big',
          limit: 500,
          ...(cursor ? { cursor } : {}),
        });
        assert.equal(page.isError, false, page.text);
        assert.ok(JSON.stringify(page.result).length < MAX_RESULT_CHARS);
        seen.push(...page.data.iterations.map((r: { n: number }) => r.n));
        cursor = page.data.next_cursor ?? undefined;
        if (!appended) {
          // Appends after the first page must neither shift nor repeat what follows.
          for (const action of ['x1', 'x2'])
            assert.equal(
              runCli(['iterate', '--session', 'big', '--outcome', 'continue', '--action', action], {
                cwd: root,
              }).code,
              0,
            );
          appended = true;
        }
      } while (cursor);
      assert.equal(seen.length, 10_000);
      assert.deepEqual(
        seen,
        Array.from({ length: 10_000 }, (_, i) => 10_000 - i),
      );
      const newest = await call(mcp.client, 'list_iterations', {
        session: 'big',
        limit: 2,
        fields: ['n', 'actions'],
      });
      assert.deepEqual(newest.data.iterations, [
        { n: 10_002, actions: ['x2'] },
        { n: 10_001, actions: ['x1'] },
      ]);
      const status = await call(mcp.client, 'session_status', { session: 'big' });
      assert.equal(status.data.completed_actions_count, 10_002);
      assert.ok(JSON.stringify(status.result).length < MAX_RESULT_CHARS);
      const sessions = await call(mcp.client, 'list_sessions', {});
      assert.deepEqual(
        sessions.data.sessions.map((s: { iterations: number }) => s.iterations),
        [10_002],
      );
    } finally {
      await mcp.close();
    }
  });

  it('cuts a huge field rather than the result: a 5 MB note stays under the budget', async () => {
    const root = tempRoot('mcp-huge-');
    writeJson(join(root, 'c.json'), sampleContract());
    runCli(['open', '--session', 'h', '--contract', 'c.json'], { cwd: root });
    const mcp = await connect(root);
    try {
      const note = 'n'.repeat(5 * 1024 * 1024);
      const rec = await call(mcp.client, 'record_iteration', { session: 'h', outcome: 'continue', note });
      assert.equal(rec.isError, false, rec.text.slice(0, 200));
      assert.ok(JSON.stringify(rec.result).length < MAX_RESULT_CHARS);
      assert.equal(readLedger(root, 'h').iterations[0].note.length, note.length, 'the ledger keeps it whole');
      const page = await call(mcp.client, 'list_iterations', { session: 'h', fields: ['note'] });
      assert.ok(JSON.stringify(page.result).length < MAX_RESULT_CHARS);
      assert.match(page.data.iterations[0].note, /… \[5242880 chars\]$/);
    } finally {
      await mcp.close();
    }
  });

  it('4 clients racing record on one session: none lost, each action recorded once', async () => {
    const root = tempRoot('mcp-race-');
    writeJson(join(root, 'c.json'), sampleContract({ iteration_limit: 1000 }));
    runCli(['open', '--session', 'r', '--contract', 'c.json'], { cwd: root });
    const clients = await Promise.all([0, 1, 2, 3].map(() => connect(root)));
    try {
      const answers = await Promise.all(
        clients.map(async (mcp, c) => {
          const out = [];
          for (let i = 0; i < 8; i++)
            out.push(
              await call(mcp.client, 'record_iteration', {
                session: 'r',
                outcome: 'continue',
                actions: [`c${c}-${i}`],
              }),
            );
          // Every client also claims one shared action: exactly one may have it.
          out.push(
            await call(mcp.client, 'record_iteration', {
              session: 'r',
              outcome: 'continue',
              actions: ['shared'],
            }),
          );
          return out;
        }),
      );
      const flat = answers.flat();
      const acknowledged = flat.filter((a) => !a.isError);
      const refusedCodes = flat.filter((a) => a.isError).map((a) => a.exitCode);
      // A busy lock is the CLI's exit 3 (retry); anything else would be a bug.
      assert.ok(
        refusedCodes.every((c) => c === 3 || c === 5),
        JSON.stringify(refusedCodes),
      );
      assert.equal(flat.filter((a) => !a.isError && a.data.actions[0] === 'shared').length, 1);
      const ledger = readLedger(root, 'r');
      assert.equal(
        ledger.iterations.length,
        acknowledged.length,
        'every acknowledged iteration is in the ledger',
      );
      const actions = ledger.iterations.flatMap((r: { actions: string[] }) => r.actions);
      assert.equal(new Set(actions).size, actions.length);
      assert.deepEqual(
        ledger.iterations.map((r: { n: number }) => r.n),
        acknowledged.map((_, i) => i + 1),
      );
    } finally {
      await Promise.all(clients.map((c) => c.close()));
    }
  });

  it('answers garbage with JSON-RPC errors and keeps serving', async () => {
    const child = rawServer(tempRoot('mcp-garbage-'));
    const got = replies(child, 4);
    child.stdin.write('this is not json\n');
    child.stdin.write('{"jsonrpc":"2.0","id":7,"bogus":true}\n');
    child.stdin.write('[1,2\n');
    child.stdin.write(JSON.stringify(INITIALIZE) + '\n');
    const [notJson, notRpc, broken, init] = (await got) as {
      id: unknown;
      error?: { code: number };
      result?: unknown;
    }[];
    assert.deepEqual(
      [notJson?.error?.code, notRpc?.error?.code, notRpc?.id, broken?.error?.code],
      [-32700, -32600, 7, -32700],
    );
    assert.equal(init?.id, 0);
    assert.ok(init?.result);
    child.stdin.end();
    assert.equal(await new Promise((r) => child.on('exit', r)), 0);
  });

  it('takes a 10 MB message, drops a 40 MB one unread, and keeps serving', async () => {
    const root = tempRoot('mcp-big-message-');
    const child = rawServer(root);
    const got = replies(child, 4);
    child.stdin.write(JSON.stringify(INITIALIZE) + '\n');
    child.stdin.write('{"jsonrpc":"2.0","method":"notifications/initialized"}\n');
    const huge = {
      jsonrpc: '2.0',
      id: 1,
      method: 'tools/call',
      params: { name: 'session_status', arguments: { session: 'x'.repeat(10 * 1024 * 1024) } },
    };
    child.stdin.write(JSON.stringify(huge) + '\n');
    child.stdin.write('"' + 'y'.repeat(40 * 1024 * 1024) + '"\n');
    child.stdin.write('{"jsonrpc":"2.0","id":2,"method":"tools/list"}\n');
    const [, tooLong, dropped, list] = (await got) as {
      id: unknown;
      error?: { code: number };
      result?: { isError?: boolean; content: { text: string }[]; tools?: unknown[] };
    }[];
    assert.equal(tooLong?.id, 1);
    assert.equal(tooLong?.result?.isError, true);
    assert.ok((tooLong.result?.content[0]?.text.length ?? 0) < 1000, 'the refusal quotes the id, shortened');
    assert.deepEqual([dropped?.id, dropped?.error?.code], [null, -32600]);
    assert.equal(list?.id, 2);
    assert.ok((list?.result?.tools?.length ?? 0) > 0);
    child.stdin.end();
    assert.equal(await new Promise((r) => child.on('exit', r)), 0);
  });

  it('a client gone mid-call: the server exits 0 on end of input, the ledger whole', async () => {
    const root = tempRoot('mcp-gone-');
    bigSession(root, 'g', 2000);
    const child = rawServer(root);
    child.stdin.write(JSON.stringify(INITIALIZE) + '\n');
    child.stdin.write('{"jsonrpc":"2.0","method":"notifications/initialized"}\n');
    const record = { session: 'g', outcome: 'continue', actions: ['last'] };
    child.stdin.write(
      JSON.stringify({
        jsonrpc: '2.0',
        id: 1,
        method: 'tools/call',
        params: { name: 'record_iteration', arguments: record },
      }) + '\n',
    );
    child.stdin.end();
    child.stdout.destroy(); // the client's end of the pipe is gone too
    assert.equal(await new Promise((r) => child.on('exit', r)), 0);
    const ledger = JSON.parse(readFileSync(ledgerPath(root, 'g'), 'utf8'));
    assert.ok([2000, 2001].includes(ledger.iterations.length), String(ledger.iterations.length));
    const status = await runCliAsync(['status', '--session', 'g', '--json'], { cwd: root });
    assert.equal(status.json.iterations, ledger.iterations.length);
  });
});
