// The session overview's checkpoint buttons run the very commands of the Sessions tree's context
// menu, on the tree's own node for that iteration: the overview names a session and an iteration
// number (already admitted by its gate), and this finds the node. Nothing is offered or run in an
// untrusted workspace (the commands refuse there too). On a PostgreSQL store window they work as
// on the files: the records come from the store, the commits from this repository.
import * as vscode from 'vscode';
import { readCheckpointKey } from '../../engine/checkpoints/rules';
import type { CheckpointActionName } from '../../shared/overview-protocol';
import type { CommandReport } from '../commands/deps';
import type { EpochNode, IterationNode } from '../sessions/nodes';
import type { SessionsTreeProvider } from '../sessions/treeProvider';
import type { TrustGate } from '../workspace/trust';

const COMMANDS: Record<CheckpointActionName, string> = {
  compareWithPrevious: 'loopLedger.checkpoint.compareWithPrevious',
  compareWithWorkspace: 'loopLedger.checkpoint.compareWithWorkspace',
  restore: 'loopLedger.checkpoint.restore',
};

/** What an overview asks about checkpoints (see OverviewServices). */
export interface OverviewCheckpoints {
  /** Whether the actions are offered on iteration `n`: a trusted workspace and a checkpoint key. */
  offers(root: string, session: string, n: number): boolean;
  /** Runs the tree's command for `action` on iteration `n`; null when it ran, else why it did not or was refused. */
  run(root: string, session: string, n: number, action: CheckpointActionName): Promise<string | null>;
}

export function overviewCheckpoints(sessions: SessionsTreeProvider, trust: TrustGate): OverviewCheckpoints {
  /** The tree's node of iteration `n` (its newest epoch's, as `checkpoint diff` picks one). */
  const iterationNode = (root: string, session: string, n: number): IterationNode | undefined => {
    const node = sessions.findSession(root, session);
    if (!node) return undefined;
    const found = sessions
      .childrenOf(node)
      .filter((c): c is EpochNode => c.kind === 'epoch')
      .flatMap((e) => sessions.childrenOf(e))
      .filter((c): c is IterationNode => c.kind === 'iteration' && c.record.n === n);
    return found[found.length - 1];
  };
  return {
    offers(root, session, n) {
      if (!trust.isTrusted) return false;
      const record = iterationNode(root, session, n)?.record;
      if (!record) return false;
      const key = (record as { checkpoint?: unknown }).checkpoint;
      const read = readCheckpointKey(key, session, record.epoch, record.n);
      return read !== null && !('problem' in read);
    },
    async run(root, session, n, action) {
      if (!trust.isTrusted) return 'checkpoints are not available in an untrusted workspace';
      if (!this.offers(root, session, n)) return `iteration ${n} has no checkpoint`;
      const report = (await vscode.commands.executeCommand(
        COMMANDS[action],
        iterationNode(root, session, n),
      )) as CommandReport<unknown> | undefined;
      return report?.status === 'refused' || report?.status === 'untrusted' ? (report.message ?? null) : null;
    },
  };
}
