// The Work Orders view: its provider, a watcher that follows the files (debounced), and its
// commands — every registration into the extension context.
import * as vscode from 'vscode';
import type { CommandManager } from '../commandManager';
import type { PrompterSlot } from '../input';
import type { TrustGate } from '../workspace/trust';
import { KILL_SWITCH_NAME } from '../../engine/workorders/admin';
import {
  ClearWorkOrderHaltCommand,
  HaltWorkOrderCommand,
  RefreshWorkOrdersCommand,
  SetWorkOrderStatusCommand,
  ToggleKillSwitchCommand,
} from './commands';
import { CreateWorkOrderCommand } from './createWorkOrder';
import type { StoreWrites } from '../sessions/sessionSource';
import { RunQueueCommand, ShowGatesCommand, ShowWorkOrderReportCommand } from './queueCommands';
import { WorkOrdersTreeProvider } from './treeProvider';

const REFRESH_DEBOUNCE_MS = 200;

export function registerWorkOrders(
  context: vscode.ExtensionContext,
  commands: CommandManager,
  prompter: PrompterSlot,
  trust: TrustGate,
  output: vscode.OutputChannel,
  storeWrites: (root: string) => StoreWrites | undefined,
): WorkOrdersTreeProvider {
  const provider = new WorkOrdersTreeProvider(
    () => vscode.workspace.getConfiguration('loopLedger.workOrders').get<number>('cap') ?? 3,
    async () =>
      (await vscode.workspace.findFiles('**/work-orders/wo-*.md', '**/{node_modules,.git}/**', 5000)).map(
        (u) => u.fsPath,
      ),
  );
  const view = vscode.window.createTreeView('loopLedger.workOrders', {
    treeDataProvider: provider,
    showCollapseAll: true,
  });
  let timer: NodeJS.Timeout | undefined;
  const soon = (): void => {
    if (timer) clearTimeout(timer);
    timer = setTimeout(() => provider.refresh(), REFRESH_DEBOUNCE_MS);
  };
  // One watcher per workspace folder and pattern (RelativePattern: a watcher of its own, scoped
  // to the folder, rather than a glob over the window's shared recursive watcher).
  const watchers = (vscode.workspace.workspaceFolders ?? []).flatMap((folder) =>
    ['**/work-orders/**', `**/${KILL_SWITCH_NAME}`].map((glob) =>
      vscode.workspace.createFileSystemWatcher(new vscode.RelativePattern(folder, glob)),
    ),
  );
  for (const w of watchers)
    context.subscriptions.push(w, w.onDidCreate(soon), w.onDidChange(soon), w.onDidDelete(soon));
  context.subscriptions.push(provider, view, {
    dispose: () => timer && clearTimeout(timer),
  });
  const deps = { prompter, provider, trust };
  commands.register(new RefreshWorkOrdersCommand(provider));
  commands.register(new CreateWorkOrderCommand(prompter, trust));
  commands.register(new SetWorkOrderStatusCommand(deps));
  commands.register(new HaltWorkOrderCommand(deps));
  commands.register(new ClearWorkOrderHaltCommand(deps));
  commands.register(new ToggleKillSwitchCommand(deps));
  const queueDeps = { ...deps, extensionPath: context.extensionPath, output, storeWrites };
  commands.register(new RunQueueCommand(queueDeps));
  commands.register(new ShowWorkOrderReportCommand(deps));
  commands.register(new ShowGatesCommand(queueDeps));
  return provider;
}
