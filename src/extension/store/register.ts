// Wires the ledger store choice into the window: reads the settings (and the password from
// secret storage), points the Sessions tree at PostgreSQL or back at the files, follows other
// processes' writes through the LISTEN follower, and shows the connection state. With no
// `loopLedger.store` set, none of this loads anything: the file store's start-up is unchanged.
import * as vscode from 'vscode';
import type { CommandManager } from '../commandManager';
import type { SessionsServices } from '../sessions/register';
import type { TrustGate } from '../workspace/trust';
import { PROJECT_SETTING, readStoreConfig, STORE_SETTING } from './storeConfig';
import { StoreLink } from './storeLink';
import { SetStorePasswordCommand, StorePasswords } from './storePassword';
import { StoreStatus } from './storeStatus';

export interface StoreApi {
  /** `host:port/database` of the store the window uses; undefined while it works on the files. */
  readonly inUse: string | undefined;
  /** The store state shown (tests read it). */
  readonly storeStatus: { readonly current: StoreStatus['current'] };
  /** Resolves once the settings have been applied (after activation and after each change). */
  storeSettled(): Promise<void>;
}

export function registerLedgerStore(
  context: vscode.ExtensionContext,
  commands: CommandManager,
  sessions: SessionsServices,
  trust: TrustGate,
): StoreApi {
  const passwords = new StorePasswords(context.secrets);
  const status = new StoreStatus(sessions.view);
  let link: StoreLink | undefined;
  let settled: Promise<void> = Promise.resolve();
  let warned = '';
  let inUse: string | undefined;

  /** Synchronous up to pointing the tree at its source, so a store set at start-up is read first. */
  const apply = (): Promise<void> => {
    const config = readStoreConfig(trust.isTrusted);
    const old = link;
    link = undefined;
    old?.dispose();
    if (config.kind !== 'store') {
      inUse = undefined;
      if (config.kind === 'off') {
        status.off(config.reason);
        if (warned !== config.reason)
          void vscode.window.showWarningMessage(vscode.l10n.t('Loop Ledger: {0}', config.reason));
        warned = config.reason;
      } else status.files();
      // Back to the files only when the tree was reading a store (a plain start reads nothing here).
      return old !== undefined ? sessions.provider.setSource(undefined) : Promise.resolve();
    }
    const password = Promise.resolve(passwords.get(config.url));
    const next = new StoreLink(config.url, password, config.project, {
      sessionChanged: (root, session) => void sessions.provider.refreshSession(root, session),
      readAgain: () => void sessions.provider.refreshAll(),
    });
    link = next;
    inUse = next.label;
    next.onDidChangeState((state) => {
      if (link === next) status.show(state);
    });
    status.show({ store: next.label, state: 'connecting', projects: [] });
    return sessions.provider.setSource(next);
  };
  const reapply = (): Promise<void> => (settled = settled.then(apply, apply));

  // A store set in the settings is in place before the tree's first read (no flash of the files).
  if (readStoreConfig(trust.isTrusted).kind !== 'files') settled = apply();

  commands.register(new SetStorePasswordCommand(passwords));
  context.subscriptions.push(
    status,
    { dispose: () => link?.dispose() },
    passwords.onDidChange(() => void reapply()),
    vscode.workspace.onDidChangeConfiguration((event) => {
      if (event.affectsConfiguration(STORE_SETTING) || event.affectsConfiguration(PROJECT_SETTING))
        void reapply();
    }),
    vscode.workspace.onDidGrantWorkspaceTrust(() => void reapply()),
    vscode.workspace.onDidChangeWorkspaceFolders(() => void reapply()),
  );
  return {
    storeStatus: status,
    storeSettled: () => settled,
    get inUse() {
      return inUse;
    },
  };
}
