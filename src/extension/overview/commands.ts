// "Loop Ledger: Show Session Overview" (from the palette, or a click on a session in the tree)
// and "Loop Ledger: Dashboard". Both only read; they work the same in an untrusted workspace.
import * as vscode from 'vscode';
import type { Command } from '../commandManager';
import { chooseSession } from '../commands/target';
import type { PrompterSlot } from '../input';
import type { SessionsTreeProvider } from '../sessions/treeProvider';
import type { DashboardPanel } from './dashboardPanel';
import type { OverviewPanel } from './overviewPanel';
import type { OverviewPanels } from './overviewPanels';

export class ShowSessionOverviewCommand implements Command {
  readonly id = 'loopLedger.showSessionOverview';

  constructor(
    private readonly panels: OverviewPanels,
    private readonly sessions: SessionsTreeProvider,
    private readonly prompter: PrompterSlot,
  ) {}

  /** The overview shown, or undefined when nothing was chosen (tests read the panel). */
  async execute(argument?: unknown): Promise<OverviewPanel | undefined> {
    const chosen = await chooseSession(this.sessions, this.prompter.current, argument, {
      id: 'overview.session',
      title: vscode.l10n.t('Loop Ledger: Show Session Overview'),
      accept: () => true,
      none: vscode.l10n.t('there are no sessions in this workspace yet.'),
    });
    if (chosen === 'cancelled') return undefined;
    if ('refused' in chosen) {
      void vscode.window.showErrorMessage(
        vscode.l10n.t('Loop Ledger: Show Session Overview: {0}', chosen.refused),
      );
      return undefined;
    }
    if ('none' in chosen) {
      void vscode.window.showInformationMessage(vscode.l10n.t('Loop Ledger: {0}', chosen.none));
      return undefined;
    }
    return this.panels.openOverview(chosen.root, chosen.session);
  }
}

export class ShowDashboardCommand implements Command {
  readonly id = 'loopLedger.showDashboard';

  constructor(private readonly panels: OverviewPanels) {}

  execute(): DashboardPanel {
    return this.panels.openDashboard();
  }
}
