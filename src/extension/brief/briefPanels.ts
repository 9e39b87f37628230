// The open critic-brief panels: opened by the assemble command, restored by VS Code after a
// reload (WebviewPanelSerializer), and found again by "Export Packet" (the last one focused).
import * as vscode from 'vscode';
import { loadLedger } from '../../app/ledger-access';
import { PersistedState, type PanelState } from '../../shared/protocol';
import { workspaceRoots } from '../workspace/roots';
import { BriefPanel, type PanelServices } from './briefPanel';

export class BriefPanels implements vscode.Disposable, vscode.WebviewPanelSerializer<unknown> {
  private readonly panels = new Set<BriefPanel>();
  private lastActive: BriefPanel | undefined;

  constructor(readonly services: PanelServices) {}

  open(state: PanelState, root: string): BriefPanel {
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
    const parsed = PersistedState.safeParse(saved);
    const state = parsed.success ? (parsed.data as unknown as PanelState) : undefined;
    const root = state ? rootOfBrief(state) : undefined;
    if (!state || !root) {
      this.services.output.appendLine(
        state
          ? vscode.l10n.t(
              'a critic-brief panel could not be restored: no workspace folder holds a ledger for {0}',
              state.session,
            )
          : vscode.l10n.t(
              'a critic-brief panel could not be restored: its saved state is missing or malformed',
            ),
      );
      webviewPanel.dispose();
      return;
    }
    this.track(
      BriefPanel.revive(webviewPanel, { ...state, spent: stillPending(root, state) }, root, this.services),
    );
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
 * The workspace folder a restored brief belongs to: the one whose ledger for its session holds
 * this brief as pending, else the one that has a ledger for the session at all. Only workspace
 * folders are candidates, so saved state cannot point the panel anywhere else.
 */
function rootOfBrief(state: PanelState): string | undefined {
  let withLedger: string | undefined;
  for (const { path } of workspaceRoots()) {
    let pending: string | null | undefined;
    try {
      pending = loadLedger(path, state.session).pending_brief?.brief_id ?? null;
    } catch {
      continue; // no readable ledger for this session here
    }
    if (pending === state.packet.brief_id) return path;
    withLedger ??= path;
  }
  return withLedger;
}

/**
 * A restored brief is still usable only if the ledger still holds it as the pending brief; a
 * verdict recorded meanwhile (here or from the CLI) or a newer brief spends it.
 */
function stillPending(root: string, state: PanelState): PanelState['spent'] {
  if (state.spent) return state.spent;
  try {
    const pending = loadLedger(root, state.session).pending_brief?.brief_id ?? null;
    if (pending === state.packet.brief_id) return null;
    return {
      reason:
        pending === null
          ? vscode.l10n.t('the ledger holds no pending brief any more (a verdict was recorded against it).')
          : vscode.l10n.t("the ledger's pending brief is now {0}.", pending),
    };
  } catch {
    return { reason: vscode.l10n.t('the ledger of {0} cannot be read.', state.session) };
  }
}
