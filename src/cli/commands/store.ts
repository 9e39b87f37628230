// `loop-ledger store migrate|import|export`: the PostgreSQL store's schema, and moving ledgers
// between the files under the root and the store (same bytes back: see docs/postgres.md).
import type { Outcome } from '../../app/outcome';
import type { CommandSpec, ParsedFlags } from '../args';
import { withHuman, type CommandOutcome } from '../outcome';
import { UsageError } from '../usage-error';
import type { CommandContext } from './context';

const ACTIONS = ['migrate', 'import', 'export'] as const;

export const spec: CommandSpec = {
  name: 'store',
  summary:
    'PostgreSQL store (--store or LOOP_LEDGER_STORE): `migrate` creates or upgrades its schema; `import` copies the ledgers under the root into it; `export` writes its ledgers to files under the root.',
  positional: 'migrate|import|export',
  flags: {
    force: { type: 'boolean', help: 'import/export: replace a session that is already there' },
  },
  stores: true,
};

export async function run(flags: ParsedFlags, ctx: CommandContext, action?: string): Promise<CommandOutcome> {
  if (!ACTIONS.includes(action as (typeof ACTIONS)[number]))
    throw new UsageError(`choose one of ${ACTIONS.join(', ')}`);
  const store = ctx.store;
  if (store === undefined) throw new UsageError('needs a PostgreSQL store: --store URL or LOOP_LEDGER_STORE');
  const force = flags.force === true;
  if (action === 'migrate')
    return withHuman(await store.migrate(), (p) =>
      p.from_version === p.to_version
        ? `${p.store}: schema at version ${p.to_version}, nothing to do`
        : `${p.store}: schema migrated from version ${p.from_version} to ${p.to_version}`,
    );
  if (force && action === undefined) throw new UsageError('--force is for import and export');
  const outcome = action === 'import' ? await store.importFiles(force) : await store.exportFiles(force);
  return transferHuman(action as string, outcome);
}

function transferHuman(
  action: string,
  outcome: Outcome<{
    store: string;
    project: string;
    sessions: string[];
    skipped: { session: string; reason: string }[];
  }>,
): CommandOutcome {
  return withHuman(outcome, (p) =>
    [
      `${action}: ${p.sessions.length} session(s) ${action === 'import' ? 'into' : 'from'} ${p.store} (project ${p.project})`,
      ...p.skipped.map((s) => `skipped ${s.session}: ${s.reason}`),
    ].join('\n'),
  );
}
