import * as vscode from 'vscode';
import type { Command } from '../commandManager';

/** What the command found and did; returned so tests can check it without reading the UI. */
export interface ShowLedgerFolderResult {
  readonly folder: string | undefined;
  readonly exists: boolean;
  readonly revealedIn: 'os' | 'explorer' | 'none';
}

const LEDGER_SEGMENTS = ['.loop', 'ledgers'] as const;

/**
 * Reveals `<workspace>/.loop/ledgers`. It never creates the folder: ledgers appear when a
 * session is opened. A local desktop window shows it in the OS file manager; a remote or
 * browser window cannot reach the server's file manager, so it is revealed in the Explorer.
 */
export class ShowLedgerFolderCommand implements Command {
  readonly id = 'loopLedger.showLedgerFolder';

  async execute(): Promise<ShowLedgerFolderResult> {
    const workspace = vscode.workspace.workspaceFolders?.[0];
    if (!workspace) {
      void vscode.window.showWarningMessage(
        vscode.l10n.t('Loop Ledger: open a folder first; ledgers live in its .loop/ledgers.'),
      );
      return { folder: undefined, exists: false, revealedIn: 'none' };
    }
    const folder = vscode.Uri.joinPath(workspace.uri, ...LEDGER_SEGMENTS);
    const shown = vscode.workspace.asRelativePath(folder, false);
    if (!(await isDirectory(folder))) {
      // Not awaited: the message resolves only when dismissed, and the command must return now.
      void vscode.window.showInformationMessage(
        vscode.l10n.t(
          'Loop Ledger: there is no ledger folder yet ({0}); it is created when a first session is opened.',
          shown,
        ),
      );
      return { folder: folder.fsPath, exists: false, revealedIn: 'none' };
    }
    const local = vscode.env.remoteName === undefined && vscode.env.uiKind === vscode.UIKind.Desktop;
    if (local) {
      await vscode.commands.executeCommand('revealFileInOS', folder);
      return { folder: folder.fsPath, exists: true, revealedIn: 'os' };
    }
    await vscode.commands.executeCommand('revealInExplorer', folder);
    void vscode.window.showInformationMessage(
      vscode.l10n.t('Loop Ledger: ledger folder {0} revealed in the Explorer.', shown),
    );
    return { folder: folder.fsPath, exists: true, revealedIn: 'explorer' };
  }
}

async function isDirectory(uri: vscode.Uri): Promise<boolean> {
  try {
    const stat = await vscode.workspace.fs.stat(uri);
    return (stat.type & vscode.FileType.Directory) !== 0;
  } catch {
    return false;
  }
}
