// The extension host stays responsive (event-loop delay, measured here with
// perf_hooks inside the real extension host) while a CLI holds a ledger's lock for 2 s and while
// 500 sessions × 20 iterations load. Prints p99 and max; asserts only a generous sanity bound
// (a synchronous wait would show the whole 2 s).
import * as assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import * as vscode from 'vscode';
import { status } from '../../src/engine/status';
import type { Ledger } from '../../src/engine/types';
import { decodeLedgerBytes } from '../../src/store/ledger-file';
import type { CommandReport } from '../../src/extension/commands/deps';
import type { LoopLedgerApi } from '../../src/extension/extension';
import { ScriptedPrompter } from '../hooks/scriptedPrompter';
import { SessionsTreeProvider } from '../../src/extension/sessions/treeProvider';
import { holdLock } from '../unit/helpers/lock-holder';
import {
  installSessionFixtures,
  loopLedgerApi,
  removeSessionFixtures,
  testingApi,
  workspaceRoot,
} from './sessionsHelpers';

const SANITY_MS = 1_000;

async function delayWhile<T>(fn: () => Promise<T>): Promise<{ result: T; p99: number; max: number }> {
  const histogram = monitorEventLoopDelay({ resolution: 10 });
  histogram.enable();
  // The monitor counts a block only once its timer runs: let it take its first samples first.
  await new Promise((resolve) => setTimeout(resolve, 30));
  try {
    const result = await fn();
    return { result, p99: histogram.percentile(99) / 1e6, max: histogram.max / 1e6 };
  } finally {
    histogram.disable();
  }
}

describe('Extension host responsiveness', function () {
  this.timeout(60_000);
  let api: LoopLedgerApi;
  let root: string;

  before(async () => {
    api = await loopLedgerApi();
    root = workspaceRoot();
    installSessionFixtures(root);
    await api.sessions.refreshAll();
  });
  after(async () => {
    removeSessionFixtures(root);
    await api.sessions.refreshAll();
  });

  it('Record Iteration waits for a CLI holding the lock 2 s without blocking the event loop', async () => {
    const ledgerFile = join(root, '.loop', 'ledgers', 'beta.json');
    const before = (JSON.parse(readFileSync(ledgerFile, 'utf8')) as Ledger).iterations.length;
    const held = await holdLock(ledgerFile, 2_000);
    const prompter = new ScriptedPrompter([
      { step: 'record.outcome', pick: 'continue' },
      { step: 'record.actions', text: 'while-locked' },
      { step: 'record.measure', pick: 'No measurements' },
      { step: 'record.details', pickMany: [] },
    ]);
    const using = (await testingApi()).prompter.use(prompter);
    const started = performance.now();
    try {
      const {
        result: report,
        p99,
        max,
      } = await delayWhile(
        async () =>
          (await vscode.commands.executeCommand('loopLedger.recordIteration', {
            root,
            session: 'beta',
          })) as CommandReport<unknown>,
      );
      const waited = performance.now() - started;
      console.log(
        `    event-loop delay while a CLI holds the lock 2 s: p99 ${p99.toFixed(1)} ms, max ${max.toFixed(1)} ms ` +
          `(aim < 50 ms at p99); the write landed after ${waited.toFixed(0)} ms`,
      );
      // The holder keeps the lock 2 s and the extension gives up at 2 s: either it recorded after
      // the release, or it reported the ledger busy. Both without blocking.
      if (report.status === 'done') {
        const after = (JSON.parse(readFileSync(ledgerFile, 'utf8')) as Ledger).iterations.length;
        assert.equal(after, before + 1);
      } else {
        assert.equal(report.status, 'refused', report.message);
        assert.match(report.message ?? '', /busy/);
      }
      assert.ok(p99 < SANITY_MS, `p99 ${p99} ms`);
    } finally {
      using.dispose();
      await held.exited;
    }
  });

  it("500 sessions × 20 iterations load without blocking; reports the tree's first paint", async () => {
    const big = mkdtempSync(join(tmpdir(), 'loop-ledger-500-'));
    try {
      writeLedgers(big, 500, 20);
      const provider = new SessionsTreeProvider(() => [{ name: 'big', path: big }]);
      const started = performance.now();
      const { result: top, p99, max } = await delayWhile(async () => provider.getChildren());
      const firstPaint = performance.now() - started;
      const items = top.map((node) => provider.getTreeItem(node));
      console.log(
        `    500 sessions × 20 iterations: first level ready for the tree in ${firstPaint.toFixed(0)} ms; ` +
          `event-loop delay meanwhile p99 ${p99.toFixed(1)} ms, max ${max.toFixed(1)} ms (aim < 50 ms at p99)`,
      );
      assert.equal(items.length, 500);
      assert.ok(p99 < SANITY_MS, `p99 ${p99} ms`);
      // What the delay is made of: the longest step the tree's read takes without yielding (one
      // ledger's decode, shape check and status, timed here in this same extension host), and
      // the same monitor over an idle second (what the machine's load alone costs).
      const slices = readdirSync(join(big, '.loop', 'ledgers')).map((name) => {
        const bytes = readFileSync(join(big, '.loop', 'ledgers', name));
        const started = performance.now();
        const read = decodeLedgerBytes(bytes, name);
        if (read.kind === 'ok') status(read.ledger);
        return performance.now() - started;
      });
      slices.sort((a, b) => a - b);
      const idle = await delayWhile(() => new Promise((resolve) => setTimeout(resolve, 1_000)));
      console.log(
        `    of which Loop Ledger's longest step without yielding: one ledger, median ${slices[Math.floor(slices.length / 2)]!.toFixed(2)} ms, p99 ${slices[Math.floor(slices.length * 0.99)]!.toFixed(1)} ms, ` +
          `max ${slices.at(-1)!.toFixed(1)} ms; the same monitor over an idle second: p99 ${idle.p99.toFixed(1)} ms, max ${idle.max.toFixed(1)} ms`,
      );
      provider.dispose();
    } finally {
      rmSync(big, { recursive: true, force: true });
    }
  });
});

function writeLedgers(root: string, sessions: number, iterations: number): void {
  const dir = join(root, '.loop', 'ledgers');
  mkdirSync(dir, { recursive: true });
  const source = JSON.parse(
    readFileSync(join(workspaceRoot(), '.loop', 'ledgers', 'beta.json'), 'utf8'),
  ) as Ledger;
  const template = source.iterations[0]!;
  const records = Array.from({ length: iterations }, (_, i) => ({
    ...template,
    n: i + 1,
    actions: [`action-${i + 1}`],
  }));
  for (let s = 0; s < sessions; s++) {
    const session = `session-${String(s).padStart(3, '0')}`;
    const ledger = {
      ...source,
      session,
      iterations: records,
      completed_actions: records.map((r) => r.actions[0]),
    };
    writeFileSync(join(dir, `${session}.json`), JSON.stringify(ledger, null, 2));
  }
}
