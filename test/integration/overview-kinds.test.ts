// The session overview of a run and of a work order inside a real extension host: the panel reads
// the run folder and the work-order folder beside the ledger (the workspace's files, found the
// window's way) and posts a model with each attempt's phases and durations, the receipt's
// verdict, and a work order's attempts n / cap; a run whose folder is gone still shows its rows.
import * as assert from 'node:assert/strict';
import { mkdirSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import * as vscode from 'vscode';
import type { OverviewPanel } from '../../src/extension/overview/overviewPanel';
import type { ToOverview } from '../../src/shared/overview-protocol';
import { syntheticLedger } from '../unit/overview/synthetic-ledger';
import { loopLedgerApi, workspaceRoot } from './sessionsHelpers';

const RUN_SESSION = 'overview-kinds-run';
const WO_SESSION = 'wo-97';
const RUN_ID = '20260101T000000Z-overview-kinds';
const TASK = 'overview-kinds-task';

type Model = Extract<ToOverview, { type: 'overview' }>['model'];

async function modelOf(root: string, session: string): Promise<{ panel: OverviewPanel; model: Model }> {
  const panel = await vscode.commands.executeCommand<OverviewPanel>('loopLedger.showSessionOverview', {
    root,
    session,
  });
  const shown = new Promise<Model>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no model for ${session}`)), 15_000);
    const sub = panel.onDidPost((m) => {
      if (m.type !== 'overview' || m.model.partial) return;
      clearTimeout(timer);
      sub.dispose();
      resolve(m.model);
    });
  });
  await panel.receive({ type: 'ready', buckets: 200 });
  return { panel, model: await shown };
}

describe('session overview of a run and a work order (integration)', () => {
  let root: string;
  const panels: OverviewPanel[] = [];

  before(async () => {
    root = workspaceRoot();
    const ledgers = join(root, '.loop', 'ledgers');
    mkdirSync(ledgers, { recursive: true });
    const run = syntheticLedger(2, RUN_SESSION);
    run.contract.owner = 'loop-ledger run';
    run.iterations.forEach((r, i) => {
      r.actions = [`${RUN_ID}/0${i + 1}/coder`, `${RUN_ID}/0${i + 1}/checks`];
      r.critic_verdict = i === 0 ? 'REVISE' : 'PASS';
    });
    writeFileSync(join(ledgers, `${RUN_SESSION}.json`), JSON.stringify(run, null, 2));
    const runDir = join(root, '.loop', 'runs', RUN_ID);
    for (const attempt of ['01', '02']) {
      const dir = join(runDir, 'attempts', attempt);
      mkdirSync(dir, { recursive: true });
      const at = (file: string, seconds: number) => {
        writeFileSync(join(dir, file), '');
        utimesSync(join(dir, file), 1_800_000_000 + seconds, 1_800_000_000 + seconds);
      };
      at('coder-prompt.md', 0);
      at('coder-stderr.txt', 12);
      at('changed-files.txt', 13);
      at('checks.json', 13.5);
    }
    writeFileSync(
      join(runDir, 'final-receipt.json'),
      JSON.stringify({
        final_verdict: 'PASS',
        stop_reason: 'CODE_REVIEWER_PASS',
        attempts_used: 2,
        max_attempts: 3,
      }),
    );

    const wo = syntheticLedger(2, WO_SESSION);
    wo.contract.owner = 'loop-ledger wo run';
    wo.iterations.forEach((r) => (r.actions = [`${WO_SESSION}/a${r.epoch}/build`]));
    writeFileSync(join(ledgers, `${WO_SESSION}.json`), JSON.stringify(wo, null, 2));
    const woDir = join(root, TASK, 'work-orders');
    mkdirSync(woDir, { recursive: true });
    writeFileSync(
      join(woDir, `${WO_SESSION}-kinds.md`),
      `---\nid: local:k#${WO_SESSION}\ntitle: Kinds\nstatus: in_progress\n---\n## Files to touch\n- \`a.ts\`\n`,
    );
    writeFileSync(
      join(woDir, `${WO_SESSION}.run.json`),
      JSON.stringify({ wo: WO_SESSION, attempts: 2, halted: false }),
    );
    await (await loopLedgerApi()).sessions.refreshAll();
  });

  after(async () => {
    for (const p of panels) p.dispose();
    rmSync(join(root, '.loop', 'ledgers', `${RUN_SESSION}.json`), { force: true });
    rmSync(join(root, '.loop', 'ledgers', `${WO_SESSION}.json`), { force: true });
    rmSync(join(root, '.loop', 'runs', RUN_ID), { recursive: true, force: true });
    rmSync(join(root, TASK), { recursive: true, force: true });
    await (await loopLedgerApi()).sessions.refreshAll();
  });

  it('shows a run’s phases with durations and its receipt’s verdict, and a note once its folder is gone', async () => {
    const { panel, model } = await modelOf(root, RUN_SESSION);
    panels.push(panel);
    assert.equal(model.kind, 'run');
    assert.deepEqual(model.receipts, [
      { runId: RUN_ID, verdict: 'PASS', stopReason: 'CODE_REVIEWER_PASS', attemptsUsed: 2, maxAttempts: 3 },
    ]);
    assert.deepEqual(
      model.kindRows.map((r) => r.cells),
      [
        ['1', 'coder 12.0 s · checks 500 ms', 'REVISE', model.kindRows[0]!.cells[3]],
        ['2', 'coder 12.0 s · checks 500 ms', 'PASS', model.kindRows[1]!.cells[3]],
      ],
    );
    panel.dispose();

    rmSync(join(root, '.loop', 'runs', RUN_ID), { recursive: true, force: true });
    const again = await modelOf(root, RUN_SESSION);
    panels.push(again.panel);
    assert.deepEqual(again.model.kindNotes, [{ note: 'run-folder-missing', runId: RUN_ID }]);
    assert.deepEqual(
      again.model.kindRows.map((r) => r.cells.slice(0, 3)),
      [
        ['1', '—', 'REVISE'],
        ['2', '—', 'PASS'],
      ],
    );
  });

  it('shows a work order’s attempts as n / cap, the cap the window dispatches under', async () => {
    const { panel, model } = await modelOf(root, WO_SESSION);
    panels.push(panel);
    assert.equal(model.kind, 'work-order');
    assert.equal(model.attempts, 2);
    assert.equal(
      model.attemptCap,
      vscode.workspace.getConfiguration('loopLedger.workOrders').get<number>('cap'),
    );
    assert.deepEqual(model.kindNotes, []);
  });
});
