// The base every command acting on one session fills in (in the spirit of GitLens's command
// base): the trust check, finding the target session, the reports that end a command before it
// does anything (untrusted, an argument naming no session of the workspace, nothing to act on, a
// cancelled pick, an unreadable ledger), and the check-and-remember step after the operation.
// A command says which sessions it acts on and what it does with one; the order of these steps,
// and what each report says, is the same for every command.
import type { LedgerStoreOps } from '../../app/ledger/store';
import type { LockOptions } from '../../app/ledger/lock-options';
import type { Outcome } from '../../app/outcome';
import type { Command } from '../commandManager';
import type { ReadableSession, SessionEntry } from '../sessions/sessionEntry';
import { writeWithoutBlocking } from '../workspace/ledgerWrites';
import { brokenRefusal } from './broken';
import { withFlags } from './cliHistory';
import type { CommandDeps, CommandReport } from './deps';
import { CANCELLED, nothingToDo, reportForeignArgument, reportRefusal, reportUntrusted } from './report';
import { candidates, chooseSession, isForeign, sessionFromArgument } from './target';

/** Which sessions a command acts on, and what it says when there is none. */
interface SessionChoice {
  readonly accept: (entry: ReadableSession) => boolean;
  readonly none: () => string;
}

/** Asks for the session on its own, before anything else; an unreadable ledger is refused. */
export interface PickFirst extends SessionChoice {
  readonly ask: 'first';
  /** The quick pick's id (tests answer it by id) and title. */
  readonly id: string;
  readonly title: () => string;
}

/** As PickFirst, but works on an unreadable ledger too (to show or copy where it is). */
export interface PickFirstAny extends Omit<PickFirst, 'ask'> {
  readonly ask: 'first-any';
}

/** A multi-step command whose first step asks for the session, so Back can return to it. */
export interface PickInSteps extends SessionChoice {
  readonly ask: 'in-steps';
}

type TargetRule = PickFirst | PickFirstAny | PickInSteps;

/** What a multi-step command starts from: the session its argument named, else the ones to pick from. */
export interface StepsTarget {
  readonly given: ReadableSession | undefined;
  /** The sessions the command accepts, newest first, read afresh at each call. */
  readonly candidates: () => ReadableSession[];
}

/** What `run` is given, by the kind of rule the command declares. */
type TargetOf<R extends TargetRule> = {
  first: ReadableSession;
  'first-any': SessionEntry;
  'in-steps': StepsTarget;
}[R['ask']];

/** An operation's result: its payload, or the refusal report that ends the command. */
export type Accepted<P> = { readonly payload: P } | { readonly refused: CommandReport<P> };

export abstract class SessionCommand<Report, R extends TargetRule> implements Command {
  abstract readonly id: string;
  /** The command's name in refusals and notifications. */
  protected abstract title(): string;
  /** Commands that write ask for a trusted workspace; reads work in any. */
  protected abstract readonly needsTrust: boolean;
  protected abstract readonly target: R;

  constructor(protected readonly deps: CommandDeps) {}

  /** What the command does with its session; every early ending is already handled. */
  protected abstract run(target: TargetOf<R>, argument: unknown): Promise<Report>;

  /**
   * The session the command acts on: the one its argument names (looked up among the workspace's
   * sessions, so an argument is only ever a key), else from `argument` below, else picked.
   */
  protected targetArgument(argument: unknown): unknown {
    return argument;
  }

  async execute(argument?: unknown): Promise<Report | CommandReport<never>> {
    const { deps } = this;
    if (this.needsTrust && !deps.trust.isTrusted) return reportUntrusted(deps, this.title());
    const target = await this.resolve(this.targetArgument(argument));
    if ('report' in target) return target.report;
    return this.run(target.value as TargetOf<R>, argument);
  }

  private async resolve(
    argument: unknown,
  ): Promise<{ value: SessionEntry | StepsTarget } | { report: CommandReport<never> }> {
    const { deps } = this;
    const rule: TargetRule = this.target;
    if (rule.ask === 'in-steps') {
      const node = await sessionFromArgument(deps.sessions, argument);
      if (isForeign(node)) return { report: reportForeignArgument(deps, this.title(), node.refused) };
      await deps.sessions.ready();
      if (node?.entry.kind === 'broken') return { report: brokenRefusal(deps, this.title(), node.entry) };
      const given = node?.entry.kind === 'ledger' ? node.entry : undefined;
      const open = () => candidates(deps.sessions, rule.accept);
      if (!given && open().length === 0) return { report: nothingToDo(rule.none()) };
      return { value: { given, candidates: open } };
    }
    const chosen = await chooseSession(deps.sessions, deps.prompter.current, argument, {
      id: rule.id,
      title: rule.title(),
      accept: rule.accept,
      none: rule.none(),
    });
    if (chosen === 'cancelled') return { report: CANCELLED };
    if ('refused' in chosen) return { report: reportForeignArgument(deps, this.title(), chosen.refused) };
    if ('none' in chosen) return { report: nothingToDo(chosen.none) };
    if (chosen.kind === 'broken' && rule.ask === 'first')
      return { report: brokenRefusal(deps, this.title(), chosen) };
    return { value: chosen };
  }

  /**
   * Checks an operation's outcome the one way: no payload (or, with `exitZero`, any exit but 0)
   * is a refusal, reported with the engine's findings and `cli`; a success is remembered as the
   * session's last CLI line under the history title `remember` gives it.
   */
  protected accepted<Q>(
    session: SessionEntry,
    outcome: Outcome<Q>,
    cli: string,
    remember: (payload: Q) => string,
    exitZero: boolean,
  ): Accepted<Q> {
    const { deps } = this;
    if ((exitZero && outcome.exitCode !== 0) || !outcome.payload)
      return { refused: reportRefusal(deps, this.title(), outcome, cli) };
    deps.cliHistory.remember(session.root, session.session, remember(outcome.payload), cli);
    return { payload: outcome.payload };
  }

  /** `cli` with the ledger store's `--store` and `--project` when one is in use for `root`. */
  protected cliFor(root: string, cli: string): string {
    return withFlags(cli, this.deps.sessions.storeWrites(root)?.cliFlags ?? []);
  }

  /**
   * Runs a ledger write without blocking the extension host (retrying while the ledger is busy),
   * refreshes the session's row, then checks the outcome as `accepted` does with exit 0 required.
   * With a ledger store in use (loopLedger.store), `onStore` is the same write on the store.
   */
  protected async write<Q>(
    session: SessionEntry,
    cli: string,
    op: (lock: LockOptions) => Outcome<Q>,
    remember: (payload: Q) => string,
    onStore: (store: LedgerStoreOps) => Promise<Outcome<Q>>,
  ): Promise<Accepted<Q>> {
    const store = this.deps.sessions.storeWrites(session.root);
    if (store !== undefined) {
      const outcome = await store.run(onStore);
      await this.deps.sessions.refreshSession(session.root, session.session);
      return this.accepted(session, outcome, cli, remember, true);
    }
    const outcome = await writeWithoutBlocking(op);
    await this.deps.sessions.refreshFile(session.path);
    return this.accepted(session, outcome, cli, remember, true);
  }
}
