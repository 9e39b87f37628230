// The elements of the Sessions tree. Folder and session nodes are kept (same object across
// refreshes) so a file change can refresh exactly one session node; epoch and iteration nodes
// are derived from their session's ledger each time it is expanded.
import type { IterationRecord } from '../../engine/types';
import type { WorkspaceRoot } from '../workspace/roots';
import type { EpochView } from './epochs';
import type { SessionEntry } from './sessionEntry';

export interface FolderNode {
  readonly kind: 'folder';
  readonly root: WorkspaceRoot;
}

export interface SessionNode {
  readonly kind: 'session';
  readonly root: WorkspaceRoot;
  /** Replaced in place when the ledger file changes. */
  entry: SessionEntry;
  /** File modification time when last read; the status bar follows the newest open session. */
  mtimeMs: number;
}

export interface EpochNode {
  readonly kind: 'epoch';
  readonly parent: SessionNode;
  readonly epoch: EpochView;
}

export interface IterationNode {
  readonly kind: 'iteration';
  readonly parent: EpochNode;
  readonly record: IterationRecord;
}

/**
 * The last row under an epoch of a long ledger whose older records are not shown yet: a click
 * fetches the next page of them (the tree shows a page at a time, see EPOCH_ROWS).
 */
export interface OlderNode {
  readonly kind: 'older';
  readonly parent: EpochNode;
  /** How many of the epoch's records are older than the oldest shown. */
  readonly hidden: number;
}

export type SessionsNode = FolderNode | SessionNode | EpochNode | IterationNode | OlderNode;

/** The session a node belongs to (commands run from a context menu on any level). */
export function sessionOf(node: SessionsNode): SessionNode | undefined {
  switch (node.kind) {
    case 'folder':
      return undefined;
    case 'session':
      return node;
    case 'epoch':
      return node.parent;
    case 'iteration':
    case 'older':
      return node.parent.parent;
  }
}
