// Where a brief panel's packet is kept so a restored panel can show it again: the webview keeps
// only a SavedPanel (root, session, brief id), and the packet itself is written once, when the
// panel opens, to `<root>/.loop/briefs/<brief_id>.panel.json` with the store's atomic write. The
// ledger cannot give it back (it keeps only the pending brief's id) and git could not either (the
// working tree has moved on since), so the packet is kept beside the exported ones. Reading it
// back is read-only, so a restore works in an untrusted workspace too; nothing is written there.
import { join } from 'node:path';
import * as vscode from 'vscode';
import { INPUT_LIMIT } from '../../app/read-input';
import { KeptPanel, type PanelState } from '../../shared/protocol';
import { writeFileAtomic, writeTargetOutsideRoot } from '../../store';
import { readTextFileAsync } from '../../store/read-async';

const BRIEF_ID = /^[0-9a-f]{16}$/;

/** `<root>/.loop/briefs/<id>.panel.json`; only for a well-formed id (16 hex digits). */
export function keptPanelPath(root: string, briefId: string): string {
  if (!BRIEF_ID.test(briefId)) throw new Error(`not a brief id: ${JSON.stringify(briefId)}`);
  return join(root, '.loop', 'briefs', `${briefId}.panel.json`);
}

/** Writes the packet a panel shows, so the panel can be restored. Trusted workspaces only. */
export async function keepPanel(root: string, state: PanelState): Promise<string> {
  const path = keptPanelPath(root, state.packet.brief_id);
  const outside = writeTargetOutsideRoot(root, path);
  if (outside !== null) throw new Error(outside);
  const kept = { session: state.session, change: state.change, packet: state.packet };
  await writeFileAtomic(path, JSON.stringify(kept) + '\n');
  return path;
}

/** The kept packet of `briefId` for `session`, or why there is none to show. Never throws. */
export async function readKeptPanel(
  root: string,
  session: string,
  briefId: string,
): Promise<{ kept: Pick<PanelState, 'session' | 'change' | 'packet'> } | { missing: string }> {
  const path = keptPanelPath(root, briefId);
  // The packet's diff may be as large as a brief input, plus the rest of the packet.
  const read = await readTextFileAsync(path, INPUT_LIMIT + 1024 * 1024);
  if (read.kind === 'absent') return { missing: vscode.l10n.t('its packet file {0} is gone.', path) };
  if (read.kind === 'refused')
    return { missing: vscode.l10n.t('its packet file {0} cannot be read ({1}).', path, read.reason) };
  let json: unknown;
  try {
    json = JSON.parse(read.text);
  } catch {
    return { missing: vscode.l10n.t('its packet file {0} is not JSON.', path) };
  }
  const parsed = KeptPanel.safeParse(json);
  if (!parsed.success)
    return { missing: vscode.l10n.t("its packet file {0} is not a brief panel's packet.", path) };
  const kept = parsed.data as unknown as Pick<PanelState, 'session' | 'change' | 'packet'>;
  if (kept.packet.brief_id !== briefId || kept.session !== session)
    return { missing: vscode.l10n.t('its packet file {0} holds another brief.', path) };
  return { kept };
}
