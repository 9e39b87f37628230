import * as vscode from 'vscode';
import { resumeContinuesRepeat } from '../../engine/repeat/ledger';
import { contextValue, NodeFlag, NodeKind } from './contextValue';
import { BROKEN_ICON, epochIcon, FOLDER_ICON, iterationIcon, OLDER_ICON, sessionIcon } from './icons';
import {
  brokenDescription,
  epochDescription,
  epochLabel,
  isStallPromoted,
  iterationDescription,
  iterationLabel,
  sessionDescription,
} from './labels';
import type { EpochNode, FolderNode, IterationNode, OlderNode, SessionNode, SessionsNode } from './nodes';
import { sessionState } from './sessionEntry';
import { liveRuns, phaseLabel } from '../run/liveRuns';
import { brokenTooltip, epochTooltip, iterationTooltip, sessionTooltip } from './tooltips';

const { Collapsed, Expanded, None } = vscode.TreeItemCollapsibleState;

export function treeItemFor(node: SessionsNode): vscode.TreeItem {
  switch (node.kind) {
    case 'folder':
      return folderItem(node);
    case 'session':
      return sessionItem(node);
    case 'epoch':
      return epochItem(node);
    case 'iteration':
      return iterationItem(node);
    case 'older':
      return olderItem(node);
  }
}

/** Stable ids keep each node's expanded state across refreshes. */
export function nodeId(node: SessionsNode): string {
  switch (node.kind) {
    case 'folder':
      return `folder:${node.root.path}`;
    case 'session':
      return `session:${node.root.path}:${node.entry.session}`;
    case 'epoch':
      return `${nodeId(node.parent)}:epoch:${node.epoch.n}`;
    case 'iteration':
      return `${nodeId(node.parent)}:#${node.record.n}`;
    case 'older':
      return `${nodeId(node.parent)}:older`;
  }
}

function folderItem(node: FolderNode): vscode.TreeItem {
  const item = new vscode.TreeItem(node.root.name, Expanded);
  item.id = nodeId(node);
  item.iconPath = FOLDER_ICON;
  item.description = node.root.path;
  item.contextValue = contextValue(NodeKind.Folder);
  return item;
}

function sessionItem(node: SessionNode): vscode.TreeItem {
  const entry = node.entry;
  const item = new vscode.TreeItem(entry.session, Collapsed);
  item.id = nodeId(node);
  // A click opens the session's overview (the twistie still expands it).
  item.command = {
    command: 'loopLedger.showSessionOverview',
    title: vscode.l10n.t('Show Session Overview'),
    arguments: [{ root: node.root.path, session: entry.session }],
  };
  // No resourceUri: the item is a session, not its ledger file, so it must not take the file's
  // decorations (git's green label and "U" badge, problem colours). Reveal Ledger File opens it.
  if (entry.kind === 'broken') {
    item.collapsibleState = None;
    // The reason first: the row is cut at the view's width; the tooltip has the whole text.
    item.description = brokenDescription(entry.problem);
    item.tooltip = brokenTooltip(entry);
    item.iconPath = BROKEN_ICON;
    item.contextValue = contextValue(NodeKind.Broken, [entry.legacy && NodeFlag.Legacy]);
    return item;
  }
  const state = sessionState(entry.ledger);
  item.description = sessionDescription(entry);
  item.tooltip = sessionTooltip(entry);
  item.iconPath = sessionIcon(state, entry.ledger.final_outcome ?? null);
  // A harness run in progress shows its phase and elapsed time on the session (src/extension/run).
  const live = liveRuns.get(node.root.path, entry.session);
  if (live) item.description = `▶ ${phaseLabel(live.progress)} — ${item.description ?? ''}`;
  item.contextValue = contextValue(NodeKind.Session, [
    stateFlag(state),
    resumeContinuesRepeat(entry.ledger) && NodeFlag.RepeatUnfinished,
    entry.legacy && NodeFlag.Legacy,
    entry.status.rubric_verdict !== null && NodeFlag.Scored,
    live && NodeFlag.Running,
  ]);
  if (entry.ledger.iterations.length === 0 && (entry.ledger.epochs ?? []).length === 0)
    item.collapsibleState = None;
  return item;
}

function epochItem(node: EpochNode): vscode.TreeItem {
  const { epoch } = node;
  const item = new vscode.TreeItem(
    epochLabel(epoch),
    epoch.count === 0 ? None : epoch.current ? Expanded : Collapsed,
  );
  item.id = nodeId(node);
  item.description = epochDescription(epoch);
  item.tooltip = epochTooltip(epoch);
  item.iconPath = epochIcon(epoch.current);
  item.contextValue = contextValue(NodeKind.Epoch, [
    stateFlag(epoch.state),
    epoch.current && NodeFlag.Current,
  ]);
  return item;
}

function iterationItem(node: IterationNode): vscode.TreeItem {
  const { record } = node;
  const promoted = isStallPromoted(record);
  const item = new vscode.TreeItem(iterationLabel(record), None);
  item.id = nodeId(node);
  item.description = iterationDescription(record);
  item.tooltip = iterationTooltip(record);
  item.iconPath = iterationIcon(record, promoted);
  item.contextValue = contextValue(NodeKind.Iteration, [
    promoted && NodeFlag.StallPromoted,
    record.evaluation !== null && record.evaluation !== undefined && NodeFlag.Scored,
    hasCheckpoint(record) && NodeFlag.Checkpoint,
  ]);
  return item;
}

/** The row that fetches an epoch's next page of older records (the provider's `showOlder`). */
export const SHOW_OLDER_COMMAND = 'loopLedger.showOlderIterations';

function olderItem(node: OlderNode): vscode.TreeItem {
  const item = new vscode.TreeItem(vscode.l10n.t('Show older iterations…'), None);
  item.id = nodeId(node);
  item.description = vscode.l10n.t('{0} older', node.hidden);
  item.iconPath = OLDER_ICON;
  item.contextValue = contextValue(NodeKind.Older);
  item.command = {
    command: SHOW_OLDER_COMMAND,
    title: vscode.l10n.t('Show older iterations…'),
    arguments: [node],
  };
  return item;
}

function hasCheckpoint(record: IterationNode['record']): boolean {
  const key = (record as { checkpoint?: unknown }).checkpoint;
  return typeof key === 'object' && key !== null;
}

function stateFlag(state: 'open' | 'paused' | 'closed'): NodeFlag {
  return state === 'open' ? NodeFlag.Open : state === 'paused' ? NodeFlag.Paused : NodeFlag.Closed;
}
