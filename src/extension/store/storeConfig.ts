// Which ledger store the extension reads and writes, from the settings: `loopLedger.store` (a
// postgres:// URL without a password) and `loopLedger.project`. The password is never taken from
// settings (they are plain text, often synced and committed): it lives in VS Code's secret
// storage (Set Store Password). An untrusted workspace connects to nothing: its settings could
// point the window at any server, so it reads the files, read-only, as without the setting.
import * as vscode from 'vscode';
import { chooseStore, StoreChoiceError, urlHasPassword } from '../../app/ledger/store-choice';

export const STORE_SETTING = 'loopLedger.store';
export const PROJECT_SETTING = 'loopLedger.project';

export type StoreConfig =
  /** No store set: the ledger files under each root (nothing of PostgreSQL is loaded). */
  | { readonly kind: 'files' }
  /** A store is set but not used; the files are read and `reason` says why. */
  | { readonly kind: 'off'; readonly reason: string }
  | { readonly kind: 'store'; readonly url: string; readonly project: string | undefined };

export function readStoreConfig(trusted: boolean): StoreConfig {
  const config = vscode.workspace.getConfiguration();
  const url = (config.get<string>(STORE_SETTING) ?? '').trim();
  if (url === '') return { kind: 'files' };
  if (!trusted)
    return {
      kind: 'off',
      reason: vscode.l10n.t(
        'This workspace is not trusted, so Loop Ledger does not connect to the ledger store in {0}; it shows the ledger files, read-only. Trust the workspace to use the store.',
        STORE_SETTING,
      ),
    };
  if (urlHasPassword(url))
    return {
      kind: 'off',
      reason: vscode.l10n.t(
        '{0} holds a password, and settings are plain text: remove it from the URL and run "Loop Ledger: Set Store Password" (kept in VS Code\'s secret storage). The store is not used until then.',
        STORE_SETTING,
      ),
    };
  const project = (config.get<string>(PROJECT_SETTING) ?? '').trim();
  try {
    // The same rule the CLI applies to --store and --project (the root is checked per folder later).
    chooseStore({
      url,
      from: STORE_SETTING,
      project: project === '' ? 'check' : project,
      projectFrom: PROJECT_SETTING,
      root: '/',
    });
  } catch (error) {
    if (error instanceof StoreChoiceError) return { kind: 'off', reason: error.message };
    throw error;
  }
  return { kind: 'store', url, project: project === '' ? undefined : project };
}
