// The store's password, kept in VS Code's secret storage (the OS keychain where there is one),
// one per store URL. Settings never hold it; the command below is the one way in.
import * as vscode from 'vscode';
import type { Command } from '../commandManager';
import { STORE_SETTING } from './storeConfig';

export function passwordKey(url: string): string {
  return `loopLedger.storePassword:${url}`;
}

export class StorePasswords {
  constructor(private readonly secrets: vscode.SecretStorage) {}

  get(url: string): Thenable<string | undefined> {
    return this.secrets.get(passwordKey(url));
  }

  /** An empty password removes the one stored. */
  async set(url: string, password: string): Promise<void> {
    if (password === '') await this.secrets.delete(passwordKey(url));
    else await this.secrets.store(passwordKey(url), password);
  }

  onDidChange(listener: () => void): vscode.Disposable {
    return this.secrets.onDidChange((event) => {
      if (event.key.startsWith('loopLedger.storePassword:')) listener();
    });
  }
}

/** "Loop Ledger: Set Store Password": asks for it (hidden input) and keeps it for the store in the settings. */
export class SetStorePasswordCommand implements Command {
  readonly id = 'loopLedger.setStorePassword';

  constructor(private readonly passwords: StorePasswords) {}

  /**
   * `given`: the password (scripts and tests); otherwise it is asked for in a hidden input box.
   * Taking one as an argument reveals nothing: the command only ever stores.
   */
  async execute(given?: unknown): Promise<'stored' | 'removed' | 'cancelled' | 'no-store'> {
    const url = (vscode.workspace.getConfiguration().get<string>(STORE_SETTING) ?? '').trim();
    if (url === '') {
      void vscode.window.showWarningMessage(
        vscode.l10n.t('Loop Ledger: set {0} (a postgres:// URL without a password) first.', STORE_SETTING),
      );
      return 'no-store';
    }
    const password =
      typeof given === 'string'
        ? given
        : await vscode.window.showInputBox({
            title: vscode.l10n.t('Loop Ledger: Set Store Password'),
            prompt: vscode.l10n.t(
              'The password for the ledger store in {0} (empty removes it).',
              STORE_SETTING,
            ),
            password: true,
            ignoreFocusOut: true,
          });
    if (password === undefined) return 'cancelled';
    await this.passwords.set(url, password);
    return password === '' ? 'removed' : 'stored';
  }
}
