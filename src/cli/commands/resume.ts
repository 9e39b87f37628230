import { resumeOp, type Outcome } from '../../app/ledger/operations';
import type { ResumePayload } from '../../engine/resume';
import { storeLedgers } from '../../app/ledger/session-ledgers';
import { resumeContinuesRepeatNowAsync, resumeContinuesRepeatOnDisk } from '../../app/repeat/resume';
import { handDownStoreFlags, rawRequestBase } from '../raw-store';
import { SESSION_FLAG, type CommandSpec, type ParsedFlags } from '../args';
import { withHuman, type CommandOutcome } from '../outcome';
import { UsageError } from '../usage-error';
import { list, str, type CommandContext } from './context';
import { repeatBundle } from './repeat';

const REPEAT_ONLY = 'only for a session whose repeat is unfinished';

export const spec: CommandSpec = {
  name: 'resume',
  summary:
    'Re-enter a paused loop (an open one is reported as it is): the contract, completed actions and next iteration. ' +
    'On a session whose repeat is unfinished (interrupted, paused, or its follow-up unconfirmed) it continues the repeat ' +
    'exactly as `repeat --session SID` does, with its exit codes (0, 10, 11, 12).',
  flags: {
    session: SESSION_FLAG,
    answer: {
      type: 'string',
      help: `answer the repeat's pending question (${REPEAT_ONLY})`,
      placeholder: 'WORD',
    },
    scope: {
      type: 'string',
      multiple: true,
      help: `with --answer change-scope: the new scope (${REPEAT_ONLY})`,
      placeholder: 'GLOB',
    },
    exclude: {
      type: 'string',
      multiple: true,
      help: `with --answer change-scope: globs to leave out (${REPEAT_ONLY})`,
      placeholder: 'GLOB',
    },
    timeout: {
      type: 'string',
      integer: true,
      help: `seconds per run of the repeat's step (default 3600; 0 = none; ${REPEAT_ONLY})`,
      placeholder: 'SECONDS',
    },
    'non-interactive': { type: 'boolean', help: `never prompt at a repeat's pause (${REPEAT_ONLY})` },
  },
  stores: true,
};

/** As `repeat --timeout`: whole seconds ≥ 0, 0 = none, default an hour. */
function timeoutMs(value: ParsedFlags[string]): number {
  if (value === undefined) return 3600 * 1000;
  if (typeof value !== 'number' || value < 0 || !Number.isSafeInteger(value))
    throw new UsageError(`--timeout ${String(value)}: must be a whole number ≥ 0`);
  return value * 1000;
}

export async function run(flags: ParsedFlags, ctx: CommandContext): Promise<CommandOutcome> {
  const session = str(flags.session) as string;
  // On a store, the repeat's ledger is the store's (its summary and state files stay under the
  // root): an unfinished one continues there, as `repeat --store` would.
  const ledgers = ctx.store ? storeLedgers(ctx.store, rawRequestBase()) : undefined;
  const continuesRepeat = ledgers
    ? await resumeContinuesRepeatNowAsync(ctx.root, session, ledgers)
    : resumeContinuesRepeatOnDisk(ctx.root, session);
  if (continuesRepeat) {
    const answer = str(flags.answer);
    if (answer !== null && answer.trim() === '') throw new UsageError('--answer is empty');
    const scope = list(flags.scope);
    const exclude = list(flags.exclude);
    const { humanReport, runRepeatFromShell } = repeatBundle();
    // The repeat's step commands get the same store as this process.
    if (ledgers)
      handDownStoreFlags({ store: str(flags.store) ?? undefined, project: str(flags.project) ?? undefined });
    const interactive =
      flags.nonInteractive !== true &&
      Boolean(process.stdin.isTTY && process.stdout.isTTY) &&
      !process.env.CI;
    const outcome = await runRepeatFromShell(
      {
        root: ctx.root,
        session,
        ...(ledgers ? { ledgers } : {}),
        ...(answer !== null
          ? { answer, change: { ...(scope.length ? { scope } : {}), ...(exclude.length ? { exclude } : {}) } }
          : {}),
        timeoutMs: timeoutMs(flags.timeout),
      },
      { json: ctx.json, interactive },
    );
    return {
      exitCode: outcome.exitCode,
      ...(outcome.payload ? { payload: outcome.payload, human: humanReport(outcome.payload) } : {}),
      findings: outcome.findings,
    };
  }
  refuseRepeatFlags(flags, session);
  return human(session, ctx.store ? await ctx.store.resume(session) : resumeOp(ctx.root, session));
}

function refuseRepeatFlags(flags: ParsedFlags, session: string): void {
  for (const flag of ['answer', 'timeout', 'nonInteractive'] as const) {
    if (flags[flag] !== undefined)
      throw new UsageError(
        `--${flag === 'nonInteractive' ? 'non-interactive' : flag} is ${REPEAT_ONLY}; ${session} has none`,
      );
  }
  if (list(flags.scope).length > 0 || list(flags.exclude).length > 0)
    throw new UsageError(`--scope/--exclude are ${REPEAT_ONLY}; ${session} has none`);
}

function human(session: string, outcome: Outcome<ResumePayload>): CommandOutcome {
  return withHuman(
    outcome,
    (p) =>
      `${session}: ${p.status}, resumed ${p.resumed} time(s), next iteration ${p.next_iteration}, ${p.completed_actions.length} completed action(s)`,
  );
}
