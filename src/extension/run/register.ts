import type { TrustGate } from '../workspace/trust';
// The harness in VS Code: Run Loop, Cancel Run, Open Receipt, the run output channel and the
// live-run registry the Sessions tree reads. Every registration goes into the context.
import * as vscode from 'vscode';
import type { CommandManager } from '../commandManager';
import { CliHistory } from '../commands/cliHistory';
import type { CommandDeps } from '../commands/deps';
import type { PrompterSlot } from '../input';
import type { SessionsApi } from '../sessions/feature';
import { CancelRunCommand } from './cancelRunCommand';
import { liveRuns, type LiveRuns } from './liveRuns';
import { OpenReceiptCommand } from './openReceiptCommand';
import { ReceiptPanels } from './receiptPanel';
import { RunLoopCommand } from './runLoopCommand';

export interface RunsApi {
  readonly runs: LiveRuns;
  readonly receipts: ReceiptPanels;
}

export function registerRuns(
  context: vscode.ExtensionContext,
  commands: CommandManager,
  prompter: PrompterSlot,
  output: vscode.OutputChannel,
  sessions: SessionsApi & { trust: TrustGate },
): RunsApi {
  const deps: CommandDeps = {
    prompter,
    output,
    sessions: sessions.sessions,
    trust: sessions.trust,
    cliHistory: new CliHistory(),
    now: () => new Date(),
  };
  const runOutput = vscode.window.createOutputChannel(vscode.l10n.t('Loop Ledger Run'));
  const receipts = new ReceiptPanels();
  context.subscriptions.push(runOutput, receipts, liveRuns);
  commands.register(
    new RunLoopCommand(deps, {
      extensionPath: context.extensionPath,
      runOutput,
      receipts,
    }),
  );
  commands.register(new CancelRunCommand());
  commands.register(new OpenReceiptCommand(deps, receipts));
  return { runs: liveRuns, receipts };
}
