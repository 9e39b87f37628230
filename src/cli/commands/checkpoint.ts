import {
  checkpointDiffOp,
  checkpointListOp,
  checkpointPruneOp,
  type CheckpointList,
  type DiffRange,
  type PrunePayload,
} from '../../app/checkpoints/operations';
import { checkpointRestoreOp, type RestoreInput, type RestorePayload } from '../../app/checkpoints/restore';
import type { LedgerStoreOps } from '../../app/ledger/store';
import type { Outcome } from '../../app/outcome';
import { SESSION_FLAG, type CommandSpec, type ParsedFlags } from '../args';
import { withHuman, type CommandOutcome } from '../outcome';
import { UsageError } from '../usage-error';
import { str, type CommandContext } from './context';

const ACTIONS = ['list', 'diff', 'restore', 'prune'];
const int = (help: string) => ({ type: 'string' as const, integer: true, help, placeholder: 'N' });

export const spec: CommandSpec = {
  name: 'checkpoint',
  summary:
    'Workspace checkpoints taken by iterate --checkpoint: list, diff (unified), restore (records a pause), prune.',
  positional: 'list|diff|restore|prune',
  flags: {
    session: SESSION_FLAG,
    iteration: int('the iteration whose checkpoint to restore, or to diff against the workspace'),
    from: int('diff: the older iteration'),
    to: int('diff: the newer iteration'),
    keep: int('prune: how many of the newest checkpoint refs to keep'),
    force: { type: 'boolean', help: 'restore even when HEAD has moved or changes are staged' },
    'dry-run': { type: 'boolean', help: 'restore: list the files it would write and remove, change nothing' },
  },
  stores: true,
};

/** A path on one line: quoted when it holds a tab, a newline or a quote. */
const shown = (path: string): string => (/[\t\n\r"]/.test(path) ? JSON.stringify(path) : path);

const num = (v: ParsedFlags[string]): number | undefined => (typeof v === 'number' ? v : undefined);

/** The action flags each action reads. */
const ACTION_FLAGS: Record<string, readonly string[]> = {
  list: [],
  diff: ['iteration', 'from', 'to'],
  restore: ['iteration', 'force', 'dry-run'],
  prune: ['keep'],
};

/**
 * A flag of another action is a usage error, never silently ignored: `prune --dry-run` would
 * otherwise prune for real, and `restore --from 1` restore something else than was meant.
 */
function refuseOtherActionsFlags(action: string, flags: ParsedFlags): void {
  const own = ACTION_FLAGS[action];
  if (!own) return;
  for (const name of ['iteration', 'from', 'to', 'keep', 'force', 'dry-run']) {
    const value = flags[name.replace(/-([a-z])/g, (_, c: string) => c.toUpperCase())];
    if (value === undefined || value === false || own.includes(name)) continue;
    const owners = Object.keys(ACTION_FLAGS).filter((a) => ACTION_FLAGS[a]!.includes(name));
    throw new UsageError(
      `checkpoint ${action}: --${name} is not a ${action} flag (only ${owners.join(', ')})`,
    );
  }
}

export function run(
  flags: ParsedFlags,
  ctx: CommandContext,
  action?: string,
): CommandOutcome | Promise<CommandOutcome> {
  const session = str(flags.session) as string;
  const ops = ctx.store ? storeOps(ctx.store, ctx.root) : fileOps(ctx.root);
  if (action !== undefined) refuseOtherActionsFlags(action, flags);
  switch (action) {
    case 'list':
      return humanOf(ops.list(session), (p) =>
        p.checkpoints.length === 0
          ? `${session}: no checkpoints`
          : p.checkpoints
              .map(
                (c) =>
                  `${c.n}\t${c.commit.slice(0, 12)}\t${c.present ? c.ref : `${c.ref} (pruned)`}` +
                  (c.excluded.length > 0 ? `\t${c.excluded.length} left out` : ''),
              )
              .join('\n'),
      );
    case 'diff':
      return humanOf(
        ops.diff(session, {
          iteration: num(flags.iteration),
          from: num(flags.from),
          to: num(flags.to),
          now: ctx.now,
        }),
        (p) => p.diff.replace(/\n$/, ''),
      );
    case 'restore': {
      const iteration = num(flags.iteration);
      if (iteration === undefined) throw new UsageError('checkpoint restore needs --iteration N');
      return humanOf(
        ops.restore(session, {
          iteration,
          force: flags.force === true,
          dryRun: flags.dryRun === true,
          now: ctx.now,
        }),
        (p) =>
          [
            `${session}: ${p.dry_run ? 'would restore' : 'restored'} iteration ${p.restored}` +
              (p.recorded ? ` (recorded pause iteration ${p.recorded}; before it: ${p.safety_ref})` : ''),
            ...p.write.map((f) => `write\t${shown(f)}`),
            ...p.remove.map((f) => `remove\t${shown(f)}`),
            ...p.kept.map((f) => `keep\t${shown(f)}`),
          ].join('\n'),
      );
    }
    case 'prune': {
      const keep = num(flags.keep);
      if (keep === undefined) throw new UsageError('checkpoint prune needs --keep N');
      return humanOf(ops.prune(session, keep), (p) =>
        [
          `${session}: kept ${p.kept.length}, pruned ${p.pruned.length}`,
          ...p.pruned.map((r) => `pruned\t${r}`),
        ].join('\n'),
      );
    }
    default:
      throw new UsageError(
        `checkpoint: the action must be one of ${ACTIONS.join(' ')}, not ${JSON.stringify(action ?? '')}`,
      );
  }
}

type Maybe<T> = T | Promise<T>;

/** The four actions over the ledger files or a store (the store's code loaded only then). */
interface CheckpointOps {
  list(session: string): Maybe<Outcome<CheckpointList>>;
  diff(session: string, range: DiffRange): Maybe<Outcome<{ diff: string }>>;
  restore(session: string, input: RestoreInput): Maybe<Outcome<RestorePayload>>;
  prune(session: string, keep: number): Maybe<Outcome<PrunePayload>>;
}

function fileOps(root: string): CheckpointOps {
  return {
    list: (session) => checkpointListOp(root, session),
    diff: (session, range) => checkpointDiffOp(root, session, range),
    restore: (session, input) => checkpointRestoreOp(root, session, input),
    prune: (session, keep) => checkpointPruneOp(root, session, keep),
  };
}

function storeOps(store: LedgerStoreOps, root: string): CheckpointOps {
  const load = import('../../app/checkpoints/on-store');
  return {
    list: (session) => load.then((m) => m.checkpointListOnStore(store, root, session)),
    diff: (session, range) => load.then((m) => m.checkpointDiffOnStore(store, root, session, range)),
    restore: (session, input) => load.then((m) => m.checkpointRestoreOnStore(store, root, session, input)),
    prune: (session, keep) => load.then((m) => m.checkpointPruneOnStore(store, root, session, keep)),
  };
}

function humanOf<P>(outcome: Maybe<Outcome<P>>, human: (payload: P) => string): Maybe<CommandOutcome> {
  return outcome instanceof Promise ? outcome.then((o) => withHuman(o, human)) : withHuman(outcome, human);
}
