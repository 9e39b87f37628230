// Run Loop…: asks for the run's request (or continues an unfinished run of the session), then
// runs the harness in this window with a cancellable progress notification, the phase on the
// session's tree node, and the agents' output in the "Loop Ledger Run" channel.
import { join } from 'node:path';
import * as vscode from 'vscode';
import { runOp, type RunOpInput, type RunOpResult } from '../../app/run/operation';
import { findUnfinishedRunAsync } from '../../app/run/session-async';
import { sessionIdProblem } from '../../store';
import type { Command } from '../commandManager';
import type { CommandDeps, CommandReport } from '../commands/deps';
import { CANCELLED, nothingToDo, reportUntrusted } from '../commands/report';
import { runFindingInUiWords } from '../findingWords';
import { checkpointSettings } from '../checkpoints/settings';
import { sessionOf, type SessionsNode } from '../sessions/nodes';
import { driverLedgers } from '../store/driverLedgers';
import { workspaceRoots } from '../workspace/roots';
import { liveRuns, phaseLabel, type LiveRun } from './liveRuns';
import type { ReceiptPanels } from './receiptPanel';
import { askRun, ledgerForPrefill } from './runQuestions';

const TITLE = (): string => vscode.l10n.t('Run Loop');
const RUN_ROOT = '.loop/runs';

export interface RunServices {
  readonly extensionPath: string;
  readonly runOutput: vscode.OutputChannel;
  readonly receipts: ReceiptPanels;
}

export type RunReport = CommandReport<RunOpResult>;

function isNode(value: unknown): value is SessionsNode {
  return typeof value === 'object' && value !== null && 'kind' in value;
}

/** Agents started from the extension host run on its Node (Electron's, in desktop VS Code, as Node). */
function agentEnv(): Record<string, string | undefined> {
  const env: Record<string, string | undefined> = { ...process.env };
  if (process.versions.electron) env.ELECTRON_RUN_AS_NODE = '1';
  return env;
}

export class RunLoopCommand implements Command {
  readonly id = 'loopLedger.runLoop';

  constructor(
    private readonly deps: CommandDeps,
    private readonly services: RunServices,
  ) {}

  async execute(argument?: unknown): Promise<RunReport> {
    const { deps } = this;
    if (!deps.trust.isTrusted)
      return reportUntrusted(deps, vscode.l10n.t('{0} (it runs agents and checks)', TITLE()));
    const node = isNode(argument) ? sessionOf(argument) : undefined;
    const roots = workspaceRoots();
    const root = node?.root ?? roots[0];
    // On a store window the run records into the store (its run folder stays in the folder).
    if (!root) return nothingToDo(vscode.l10n.t('open a folder (a git repository) first.'));
    const writes = deps.sessions.storeWrites(root.path);
    const ask = () => deps.prompter.current;

    let session = node?.entry.session;
    if (!session) {
      const answer = await ask().inputText({
        id: 'run.session',
        title: vscode.l10n.t('Loop Ledger: Run Loop'),
        prompt: vscode.l10n.t('Session (empty: a new session named after the run)'),
        validate: (t) => (t.trim() === '' ? undefined : (sessionIdProblem(t.trim()) ?? undefined)),
      });
      if (typeof answer !== 'string') return CANCELLED;
      session = answer.trim() || undefined;
    }
    if (session && liveRuns.get(root.path, session))
      return nothingToDo(vscode.l10n.t('session {0} already has a run in progress.', session));

    const unfinished = session ? await findUnfinishedRunAsync(root.path, RUN_ROOT, session) : null;
    let request: Omit<RunOpInput, 'root' | 'env' | 'now' | 'runRoot' | 'requireClean'>;
    if (unfinished) {
      const go = await ask().confirm({
        id: 'run.resume',
        title: vscode.l10n.t('Continue run {0}?', unfinished.runId),
        detail: vscode.l10n.t(
          'It has no receipt: it continues at its first unrecorded attempt with the same request.',
        ),
        confirmLabel: vscode.l10n.t('Continue run'),
      });
      if (!go) return CANCELLED;
      const stored = unfinished.request as typeof unfinished.request & { agent_config: string };
      request = {
        objective: stored.objective,
        allow: stored.allowed_globs,
        checks: stored.checks,
        maxAttempts: stored.max_attempts,
        checkTimeout: stored.check_timeout,
        agentConfig: stored.agent_config,
        session,
      };
    } else {
      const answers = await askRun(ask, {
        ledger: await ledgerForPrefill(root.path, session),
        root: root.path,
        configs: (
          await vscode.workspace.findFiles(
            new vscode.RelativePattern(root.path, '**/*.toml'),
            '**/node_modules/**',
            50,
          )
        ).map((u) => u.fsPath),
        starters: [
          {
            label: vscode.l10n.t('Fake agent (no LLM)'),
            path: join(this.services.extensionPath, 'examples', 'run', 'agents.fake.toml'),
            detail: vscode.l10n.t(
              'A stand-in agent that writes loop-demo.md in the first allowed folder; for trying the harness',
            ),
          },
          {
            label: vscode.l10n.t('Real CLI agent (commented)'),
            path: join(this.services.extensionPath, 'examples', 'run', 'agents.cli-agent.toml'),
            detail: vscode.l10n.t(
              'A commented config for a command-line coding agent; copy and edit it first',
            ),
          },
        ],
      });
      if (!answers) return CANCELLED;
      if ((answers.checks ?? []).length === 0) {
        const go = await ask().confirm({
          id: 'run.noChecks',
          title: vscode.l10n.t('No check: this run cannot PASS'),
          detail: vscode.l10n.t(
            'A PASS needs at least one deterministic check that exits 0; without one every attempt repairs until NEEDS_CHANGES.',
          ),
          confirmLabel: vscode.l10n.t('Run anyway'),
        });
        if (!go) return CANCELLED;
      }
      request = {
        objective: answers.objective as string,
        allow: answers.allow as string[],
        checks: answers.checks ?? [],
        maxAttempts: answers.maxAttempts ?? 3,
        checkTimeout: 300,
        agentConfig: answers.agentConfig as string,
        session,
      };
    }
    return this.run({
      ...request,
      ledgers: writes ? driverLedgers(writes) : undefined,
      root: root.path,
      runRoot: RUN_ROOT,
      requireClean: true,
      env: agentEnv(),
      python: vscode.workspace.getConfiguration('loopLedger').get<string>('python') || undefined,
      ...checkpointSettings(root.path),
      now: deps.now,
    });
  }

  private async run(input: RunOpInput): Promise<RunReport> {
    const { deps, services } = this;
    const out = services.runOutput;
    const controller = new AbortController();
    let live: LiveRun | undefined;
    const refreshTree = () => {
      if (live)
        deps.sessions.redrawSession(
          live.root,
          live.session,
          join(live.root, '.loop', 'ledgers', `${live.session}.json`),
        );
    };
    const result = await vscode.window.withProgress(
      {
        location: vscode.ProgressLocation.Notification,
        title: vscode.l10n.t('Loop Ledger run'),
        cancellable: true,
      },
      async (progress, token) => {
        token.onCancellationRequested(() => controller.abort());
        const tick = setInterval(() => {
          if (!live) return;
          progress.report({ message: phaseLabel(live.progress) });
          liveRuns.update(live);
          refreshTree();
        }, 1000);
        try {
          return await runOp({
            ...input,
            signal: controller.signal,
            onStart: (info) => {
              live = { root: input.root, session: info.session, runId: info.runId, controller };
              liveRuns.start(live);
              out.appendLine(
                info.resumed
                  ? vscode.l10n.t('── run {0} (session {1}), resumed', info.runId, info.session)
                  : vscode.l10n.t('── run {0} (session {1})', info.runId, info.session),
              );
              refreshTree();
            },
            onProgress: (p) => {
              if (!live) return;
              liveRuns.update(live, p);
              progress.report({ message: phaseLabel(p) });
              out.appendLine(`[${phaseLabel(p, p.startedAt)}]`);
              refreshTree();
            },
            onOutput: (source, stream, text) => {
              for (const line of text.split('\n').filter((l) => l !== ''))
                out.appendLine(`${source} ${stream}: ${line}`);
            },
          });
        } finally {
          clearInterval(tick);
          if (live) liveRuns.end(live);
          refreshTree();
        }
      },
    );
    return this.report(input.root, result);
  }

  private report(root: string, result: RunOpResult): RunReport {
    const { deps } = this;
    // The previous run's ending recovered first, or what the ledger could not take: said as is.
    const notes = result.kind === 'refused' ? result.notes : result.kind === 'receipt' ? result.warnings : [];
    for (const note of notes) deps.output.appendLine(note);
    if (result.kind === 'refused') {
      // In the UI's words: a flag Run Loop asks for is named as its question names it.
      const findings = result.findings.map(runFindingInUiWords);
      const message = vscode.l10n.t(
        'Loop Ledger: {0} refused (exit {1}). {2} Nothing was written.',
        TITLE(),
        result.exitCode,
        findings.join(' '),
      );
      deps.output.appendLine(message);
      void vscode.window.showErrorMessage(message);
      return {
        status: 'refused',
        message,
        exitCode: result.exitCode,
        findings,
        payload: result,
      };
    }
    if (result.kind === 'cancelled') {
      const message = vscode.l10n.t(
        'run {0} cancelled during {1}; the session {2} is paused — Run Loop on it continues the run.',
        result.runId,
        result.phase,
        result.session,
      );
      deps.output.appendLine(message);
      void vscode.window.showWarningMessage(vscode.l10n.t('Loop Ledger: {0}', message));
      return { status: 'cancelled', message, exitCode: 130, payload: result };
    }
    const r = result.receipt;
    const message = vscode.l10n.t(
      'run {0}: {1} ({2}) after {3} attempt(s)',
      r.run_id,
      r.final_verdict,
      r.stop_reason,
      r.attempts_used,
    );
    const openReceipt = vscode.l10n.t('Open Receipt');
    void vscode.window
      .showInformationMessage(vscode.l10n.t('Loop Ledger: {0}', message), openReceipt)
      .then((choice) =>
        choice
          ? this.services.receipts.show(root, join(root, result.runDir, 'final-receipt.json'))
          : undefined,
      );
    return {
      ...reportDoneQuiet(deps, message, r.reviewer.findings),
      exitCode: result.exitCode,
      payload: result,
    };
  }
}

/** The done report without a second notification (the one above offers Open Receipt). */
function reportDoneQuiet(deps: CommandDeps, message: string, findings: string[]): RunReport {
  deps.output.appendLine(message);
  for (const f of findings) deps.output.appendLine(`  ${f}`);
  return { status: 'done', message };
}
