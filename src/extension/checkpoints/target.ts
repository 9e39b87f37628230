// The iteration a checkpoint command acts on: a node of the Sessions tree whose record carries a
// `checkpoint` key. The argument can come from anywhere (a keybinding, another extension), so its
// root must be a workspace folder and the key passes the engine's checks before git sees it.
import { readCheckpointKey, type CheckpointRecord } from '../../engine/checkpoints/rules';
import type { IterationRecord } from '../../engine/types';
import type { IterationNode } from '../sessions/nodes';
import { workspaceRoots } from '../workspace/roots';

export interface CheckpointTarget {
  root: string;
  session: string;
  n: number;
  checkpoint: CheckpointRecord;
  /** The newest earlier iteration of the session with a checkpoint, when there is one. */
  previous?: { n: number; checkpoint: CheckpointRecord };
}

function keyOf(session: string, record: IterationRecord) {
  return readCheckpointKey((record as { checkpoint?: unknown }).checkpoint, session, record.epoch, record.n);
}

export function checkpointTarget(arg: unknown): CheckpointTarget | { refused: string } {
  const node = arg as Partial<IterationNode> | undefined;
  const sessionNode = node?.kind === 'iteration' ? node.parent?.parent : undefined;
  if (!node?.record || !sessionNode) return { refused: 'run it on an iteration in the Sessions view' };
  const root = sessionNode.root.path;
  if (!workspaceRoots().some((r) => r.path === root))
    return { refused: 'the iteration is not in a workspace folder' };
  const entry = sessionNode.entry;
  const session = entry.session;
  const read = keyOf(session, node.record);
  if (read === null) return { refused: `iteration ${node.record.n} has no checkpoint` };
  if ('problem' in read) return { refused: read.problem };
  const target: CheckpointTarget = { root, session, n: node.record.n, checkpoint: read.checkpoint };
  if (entry.kind === 'ledger') {
    const records = entry.ledger.iterations;
    const at = records.findIndex((r) => r.epoch === node.record!.epoch && r.n === node.record!.n);
    for (let i = at - 1; i >= 0; i--) {
      const earlier = keyOf(session, records[i]!);
      if (earlier !== null && !('problem' in earlier)) {
        target.previous = { n: records[i]!.n, checkpoint: earlier.checkpoint };
        break;
      }
    }
  }
  return target;
}
