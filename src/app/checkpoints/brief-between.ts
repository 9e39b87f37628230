// `brief --from-checkpoint N --to-checkpoint M`: the change under review is what changed between
// two of the session's checkpoints. The commits are read from the ledger only through the checks
// `checkpoint diff` applies (a full hex id, the exact ref of that record, a ref that still names
// it), and the diff is the same git call as `checkpoint diff --from N --to M`, so the packet is the
// one that piping that diff into `brief --diff-file` gives; its `--stat` is the change scope.
import { DIFF_OPTIONS } from '../../drivers/git/git';
import { gitOk } from '../../drivers/checkpoints/git';
import { openWorkspace } from '../../drivers/checkpoints/workspace';
import type { BriefInput, BriefPacket, DiffText } from '../../engine/brief';
import type { LedgerStoreOps } from '../ledger/store';
import { briefOp, type BriefOpInput } from '../ledger/operations';
import { ledgerFile, operation, Refused, type Outcome } from '../outcome';
import {
  checkpointOf,
  checkpointsOfLedger,
  liveCommit,
  sessionCheckpoints,
  type SessionCheckpoint,
} from './checkpoints';
import { checkpointStep } from './errors';
import { CHECKPOINT_DIFF_OPTIONS } from './operations';

export interface CheckpointPair {
  from: number;
  to: number;
}

/** Wide enough that git never abbreviates a path to `.../tail` (as the window's brief asks). */
const STAT = '--stat=10000,9000';

/** The diff, its `--stat` and where the ledger's root sits in the repository, for two checkpoints. */
export function checkpointChange(
  root: string,
  session: string,
  all: SessionCheckpoint[],
  pair: CheckpointPair,
): Pick<BriefOpInput, 'diff' | 'changeScope' | 'ownPrefix'> {
  return checkpointStep('brief', () => {
    const ws = openWorkspace(root);
    const from = liveCommit(ws, checkpointOf(all, session, pair.from), session);
    const to = liveCommit(ws, checkpointOf(all, session, pair.to), session);
    const range = ['--end-of-options', from, to, '--'];
    const diff = gitOk(ws.place, ['diff', ...CHECKPOINT_DIFF_OPTIONS, ...range]).toString('utf8');
    const stat = gitOk(ws.place, ['diff', STAT, ...DIFF_OPTIONS, '--no-renames', ...range]).toString('utf8');
    const label = `checkpoints ${pair.from}..${pair.to} of ${session}`;
    return {
      diff: { path: `git diff (${label})`, text: diff },
      changeScope: { path: `git diff --stat (${label})`, text: stat },
      // Paths in the diff are from the repository's top; the ledger's `.loop/` is under the root.
      ownPrefix: ws.loopPrefix.slice(0, -'.loop/'.length),
    };
  });
}

/** The brief over the ledger files, its change read from two checkpoints. */
export function briefFromCheckpointsOp(
  root: string,
  session: string,
  pair: CheckpointPair,
  verification: BriefInput,
): Outcome<BriefPacket<DiffText>> {
  let change: ReturnType<typeof checkpointChange>;
  const read = operation(ledgerFile(root, session), () => {
    change = checkpointChange(root, session, sessionCheckpoints(root, session), pair);
    return { exitCode: 0, findings: [] };
  });
  if (read.exitCode !== 0) return { exitCode: read.exitCode, findings: read.findings };
  return briefOp(root, session, { ...change!, verification });
}

/** The same on a store: the checkpoints its records name, the commits from this repository. */
export async function briefFromCheckpointsOnStore(
  store: LedgerStoreOps,
  root: string,
  session: string,
  pair: CheckpointPair,
  verification: BriefInput,
): Promise<Outcome<BriefPacket<DiffText>>> {
  const read = await store.load(session, 'all');
  if (read.exitCode !== 0 || read.payload === undefined)
    return { exitCode: read.exitCode, findings: read.findings };
  let change: ReturnType<typeof checkpointChange>;
  try {
    change = checkpointChange(root, session, checkpointsOfLedger(read.payload.ledger, session), pair);
  } catch (error) {
    if (error instanceof Refused) return { exitCode: error.exitCode, findings: error.findings };
    throw error;
  }
  return store.brief(session, { ...change, verification });
}
