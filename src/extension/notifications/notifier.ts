// One notification per moment a loop needs a person (a stall, an escalation, a budget cap, a
// brief waiting for its verdict), and the activity-bar badge counting those loops. It follows the
// Sessions tree's own ledger watching: whenever the tree re-reads a session, the pure rule
// (engine/attention.ts) says which events the ledger shows; the keys already announced are kept
// in workspaceState, so a reload or a second re-read of one write never repeats a notification.
import * as l10n from '@vscode/l10n';
import * as vscode from 'vscode';
import {
  attentionEvents,
  newAttentionEvents,
  type AttentionEvent,
  type AttentionKind,
} from '../../engine/attention';
import type { SessionNode, SessionsNode } from '../sessions/nodes';
import type { SessionsTreeProvider } from '../sessions/treeProvider';
import { notificationKey, notifySetting } from './keys';

export const SHOWN_KEY = 'loopLedger.notifications.shown';
/** Only the newest keys are kept: enough to never repeat a live event, bounded for old workspaces. */
const MAX_SHOWN = 500;

/** What a notification offers, by the command each button runs; `writes`: not offered when untrusted. */
const ACTIONS: Record<AttentionKind, { label: () => string; command: string; writes?: true }[]> = {
  stall: [{ label: () => l10n.t('Open Overview'), command: 'loopLedger.showSessionOverview' }],
  escalation: [{ label: () => l10n.t('Open Overview'), command: 'loopLedger.showSessionOverview' }],
  budget: [{ label: () => l10n.t('Open Overview'), command: 'loopLedger.showSessionOverview' }],
  verdict: [
    { label: () => l10n.t('Record Verdict'), command: 'loopLedger.recordIteration', writes: true },
    { label: () => l10n.t('Assemble Brief'), command: 'loopLedger.assembleBrief', writes: true },
    { label: () => l10n.t('Open Overview'), command: 'loopLedger.showSessionOverview' },
  ],
};

/**
 * `folder`: the workspace folder's name when the window has several; two folders may each hold
 * a session of one id, and the words must say which one stalled.
 */
function message(event: AttentionEvent, folder: string | undefined): string {
  const where =
    folder === undefined
      ? l10n.t('{0} (epoch {1}, iteration {2})', event.session, event.epoch, event.n)
      : l10n.t('{0} in {1} (epoch {2}, iteration {3})', event.session, folder, event.epoch, event.n);
  switch (event.kind) {
    case 'stall':
      return l10n.t('Loop Ledger: {0} stalled: {1}.', where, event.detail ?? '');
    case 'escalation':
      return event.detail
        ? l10n.t('Loop Ledger: {0} escalated: {1}', where, event.detail)
        : l10n.t('Loop Ledger: {0} escalated.', where);
    case 'budget':
      return l10n.t('Loop Ledger: {0} stopped at a budget cap: {1}.', where, event.detail ?? '');
    case 'verdict':
      return l10n.t(
        'Loop Ledger: {0} has brief {1} waiting for a critic verdict.',
        where,
        event.detail ?? '',
      );
  }
}

/** What the notifier did, told to the integration tests' hooks (test/hooks/testHooks.ts). */
export interface NotifiedEvent {
  /** The remembered key: the workspace folder and the engine's `session:epoch:n:kind`. */
  readonly key: string;
  readonly kind: AttentionKind;
  readonly message: string;
  readonly actions: string[];
}

/** The test-only observer: each notification shown, and the badge's number after each pass. */
export interface AttentionObserver {
  notified(event: NotifiedEvent): void;
  badge(count: number): void;
  /**
   * The person's answer to a notification: given the real one, may return a scripted one (a test
   * cannot click a notification's button, but what the button runs must be proved all the same).
   */
  answer?(event: NotifiedEvent, shown: Thenable<string | undefined>): Thenable<string | undefined>;
}

export class AttentionNotifier implements vscode.Disposable {
  private readonly subscription: vscode.Disposable;
  /** One pass at a time: two re-reads of one write must not both see the event as new. */
  private pass: Promise<void> = Promise.resolve();

  constructor(
    private readonly state: vscode.Memento,
    private readonly sessions: SessionsTreeProvider,
    private readonly view: vscode.TreeView<SessionsNode>,
    private readonly trusted: () => boolean,
    private readonly observer?: AttentionObserver,
  ) {
    this.subscription = sessions.onDidChangeSessions(() => void this.update());
  }

  /** Re-reads what every session shows, updates the badge and announces what is new. */
  update(): Promise<void> {
    this.pass = this.pass.then(() => this.check()).catch(() => undefined);
    return this.pass;
  }

  dispose(): void {
    this.subscription.dispose();
  }

  private async check(): Promise<void> {
    const nodes = this.sessions.sessionNodes();
    const perNode = nodes.map((node) => ({
      node,
      events: node.entry.kind === 'ledger' ? attentionEvents(node.entry.ledger) : [],
    }));
    const waiting = perNode.filter((p) => p.events.length > 0).length;
    this.view.badge =
      waiting > 0
        ? {
            value: waiting,
            tooltip: waiting === 1 ? l10n.t('1 loop needs you') : l10n.t('{0} loops need you', waiting),
          }
        : undefined;
    this.observer?.badge(waiting);

    const config = vscode.workspace.getConfiguration('loopLedger.notify');
    const enabled = (kind: AttentionKind) => notifySetting(config.get<unknown>(kind), true);
    const shown = new Set(this.state.get<string[]>(SHOWN_KEY, []));
    const fresh = perNode.flatMap(({ node, events }) =>
      newAttentionEvents(events, shown, enabled, (event) => notificationKey(node.root.path, event)).map(
        (event) => ({ node, event, key: notificationKey(node.root.path, event) }),
      ),
    );
    if (fresh.length === 0) return;
    // Remembered before showing: a reload while a notification is up does not show it again.
    const keys = [...shown, ...fresh.map((f) => f.key)].slice(-MAX_SHOWN);
    await this.state.update(SHOWN_KEY, keys);
    for (const { node, event, key } of fresh) this.announce(node, event, key);
  }

  private announce(node: SessionNode, event: AttentionEvent, key: string): void {
    // An untrusted workspace is read-only: a button that writes or runs git would only refuse.
    const actions = ACTIONS[event.kind].filter((a) => a.writes !== true || this.trusted());
    const labels = [...actions.map((a) => a.label()), l10n.t('Dismiss')];
    const several = (vscode.workspace.workspaceFolders ?? []).length > 1;
    const text = message(event, several ? node.root.name : undefined);
    const notified: NotifiedEvent = { key, kind: event.kind, message: text, actions: labels };
    this.observer?.notified(notified);
    const show =
      event.kind === 'verdict' ? vscode.window.showInformationMessage : vscode.window.showWarningMessage;
    const shown = show(text, ...labels);
    const answered = this.observer?.answer ? this.observer.answer(notified, shown) : shown;
    void Promise.resolve(answered).then(async (choice) => {
      const action = actions.find((a) => a.label() === choice);
      if (!action) return; // Dismiss, or closed
      // The session's tree node: every session command, and the overview, accept one.
      const argument = node;
      try {
        await vscode.commands.executeCommand(action.command, argument);
      } catch {
        // The overview may be absent in an older build: the session's status says the same in words.
        await vscode.commands.executeCommand('loopLedger.showStatus', argument);
      }
    });
  }
}
