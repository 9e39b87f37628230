// The open critic-brief panels: opened by the assemble command, restored by VS Code after a
// reload (WebviewPanelSerializer), and found again by "Export Packet" (the last one focused).
// A restore gets back only what the webview kept (a SavedPanel: root, session, brief id). That
// state is untrusted input: its root must be a workspace folder, its session a valid id, and the
// packet is re-read from the file the panel kept when it opened (keptPanel.ts), never taken from
// the state. A restore reads and never writes, so it works the same in an untrusted workspace.
import * as vscode from 'vscode';
import { SavedPanel, type PanelState } from '../../shared/protocol';
import { sessionIdProblem } from '../../store';
import { readSessionLedgerAsync } from '../../store/read-async';
import type { StoreWrites } from '../sessions/sessionSource';
import { workspaceRoots } from '../workspace/roots';
import { BriefPanel, type PanelServices } from './briefPanel';
import { keepPanel, readKeptPanel } from './keptPanel';
import { unrestorableHtml } from './panelHtml';

/** What a restore did (tests read it): the panel, or why the brief cannot be shown again. */
export type RestoreResult = { panel: BriefPanel } | { refused: string };

export class BriefPanels implements vscode.Disposable, vscode.WebviewPanelSerializer<unknown> {
  private readonly panels = new Set<BriefPanel>();
  private lastActive: BriefPanel | undefined;

  constructor(readonly services: PanelServices) {}

  /**
   * Shows a freshly assembled brief, after keeping its packet so the panel can be restored after
   * a reload. Assembling is refused in an untrusted workspace, so this only runs where writes
   * are allowed; a packet that cannot be kept still shows (it just will not survive a reload).
   */
  async open(state: PanelState, root: string): Promise<BriefPanel> {
    if (this.services.isTrusted()) {
      try {
        await keepPanel(root, state);
      } catch (error) {
        this.services.output.appendLine(
          `[brief ${state.packet.brief_id}] its packet was not kept, so the panel will not survive a reload: ${error instanceof Error ? error.message : String(error)}`,
        );
      }
    }
    return this.track(BriefPanel.create(state, root, this.services));
  }

  /** The panel "Export Packet" acts on: the focused one, else the last one focused. */
  get active(): BriefPanel | undefined {
    for (const panel of this.panels) if (panel.panel.active) return panel;
    return this.lastActive;
  }

  get all(): readonly BriefPanel[] {
    return [...this.panels];
  }

  async deserializeWebviewPanel(webviewPanel: vscode.WebviewPanel, saved: unknown): Promise<void> {
    await this.restore(webviewPanel, saved);
  }

  /** Restores one panel from its saved state, or shows in it why that brief cannot come back. */
  async restore(webviewPanel: vscode.WebviewPanel, saved: unknown): Promise<RestoreResult> {
    const found = await this.findKept(saved);
    if ('refused' in found) {
      this.services.output.appendLine(
        vscode.l10n.t('a critic-brief panel could not be restored: {0}', found.refused),
      );
      webviewPanel.webview.options = { enableScripts: false, localResourceRoots: [] };
      webviewPanel.webview.html = unrestorableHtml(
        webviewPanel.webview,
        this.services.extensionUri,
        found.refused,
      );
      return found;
    }
    const { root, state } = found;
    return { panel: this.track(BriefPanel.revive(webviewPanel, state, root, this.services)) };
  }

  private async findKept(saved: unknown): Promise<{ root: string; state: PanelState } | { refused: string }> {
    const parsed = SavedPanel.safeParse(saved);
    if (!parsed.success)
      return {
        refused: vscode.l10n.t('its saved state is missing or malformed (it may be from an older version).'),
      };
    const { root, session, briefId } = parsed.data;
    if (sessionIdProblem(session) !== null)
      return { refused: vscode.l10n.t('its saved state names an invalid session id.') };
    // Only a folder open in this window: saved state cannot point the panel anywhere else.
    if (!workspaceRoots().some((folder) => folder.path === root))
      return { refused: vscode.l10n.t('its folder {0} is not a folder of this workspace.', root) };
    const kept = await readKeptPanel(root, session, briefId);
    if ('missing' in kept) return { refused: kept.missing };
    const spent = await stillPending(root, session, briefId, this.services.storeWrites(root));
    return { root, state: { ...kept.kept, spent, canRecord: this.services.isTrusted() } };
  }

  private track(panel: BriefPanel): BriefPanel {
    this.panels.add(panel);
    this.lastActive = panel;
    panel.panel.onDidChangeViewState(() => {
      if (panel.panel.active) this.lastActive = panel;
    });
    panel.onDidDispose(() => {
      this.panels.delete(panel);
      if (this.lastActive === panel) this.lastActive = undefined;
    });
    return panel;
  }

  dispose(): void {
    for (const panel of [...this.panels]) panel.dispose();
  }
}

/**
 * A restored brief is still usable only if the ledger still holds it as the pending brief; a
 * verdict recorded meanwhile (here or from the CLI) or a newer brief spends it.
 */
async function stillPending(
  root: string,
  session: string,
  briefId: string,
  store: StoreWrites | undefined,
): Promise<PanelState['spent']> {
  const pending = await pendingBrief(root, session, store);
  if (pending === undefined) return { reason: vscode.l10n.t('the ledger of {0} cannot be read.', session) };
  if (pending === briefId) return null;
  return {
    reason:
      pending === null
        ? vscode.l10n.t('the ledger holds no pending brief any more (a verdict was recorded against it).')
        : vscode.l10n.t("the ledger's pending brief is now {0}.", pending),
  };
}

/** The session's pending brief id (null: none), from the store on a store window; undefined: unreadable. */
async function pendingBrief(
  root: string,
  session: string,
  store: StoreWrites | undefined,
): Promise<string | null | undefined> {
  if (store) return (await store.run((s) => s.storedBrief(session, null))).payload?.pending;
  const found = await readSessionLedgerAsync(root, session);
  if (found === null || found.read.kind !== 'ok') return undefined;
  return found.read.ledger.pending_brief?.brief_id ?? null;
}
