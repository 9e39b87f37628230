// "Loop Ledger: Export Packet": writes the open panel's packet to .loop/briefs/<brief_id>.md and
// .json and offers to copy it, so a different context can judge the change.
import * as vscode from 'vscode';
import type { Command } from '../commandManager';
import type { BriefPanels } from './briefPanels';

export class ExportPacketCommand implements Command {
  readonly id = 'loopLedger.exportBrief';

  constructor(private readonly panels: BriefPanels) {}

  async execute(): Promise<{ markdown: string; json: string } | undefined> {
    const panel = this.panels.active;
    if (!panel) {
      void vscode.window.showInformationMessage(
        vscode.l10n.t('Loop Ledger: no critic brief is open; run "Assemble Critic Brief" first.'),
      );
      return undefined;
    }
    return panel.export();
  }
}
