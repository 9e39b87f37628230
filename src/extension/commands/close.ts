import * as l10n from '@vscode/l10n';
import { closeOp, type ClosePayload } from '../../app/operations';
import type { CloseInput } from '../../engine/close';
import { OUTCOMES, type Outcome } from '../../engine/types';
import type { Command } from '../commandManager';
import { runSteps, settle, type Step } from '../input';
import type { ReadableSession } from '../sessions/sessionEntry';
import { brokenRefusal } from './broken';
import { cliLine } from './cliHistory';
import { askEscalateFields } from './escalateStep';
import type { CommandDeps, CommandReport } from './deps';
import {
  CANCELLED,
  nothingToDo,
  reportForeignArgument,
  reportDone,
  reportRefusal,
  reportUntrusted,
} from './report';
import { candidates, isForeign, pickSession, sessionFromArgument } from './target';
import { writeWithoutBlocking } from '../workspace/ledgerWrites';

const TITLE = (): string => l10n.t('Close');
const STEP_TITLE = (): string => l10n.t('Loop Ledger: Close Session');

interface CloseAnswers {
  target?: ReadableSession;
  outcome?: Outcome;
  blocker?: string;
  evidence?: string;
  recommendedNext?: string;
  note?: string;
}

/** Ends an open loop with a terminal outcome (no iteration recorded), through closeOp. */
export class CloseCommand implements Command {
  readonly id = 'loopLedger.close';

  constructor(private readonly deps: CommandDeps) {}

  async execute(argument?: unknown): Promise<CommandReport<ClosePayload>> {
    const { deps } = this;
    if (!deps.trust.isTrusted) return reportUntrusted(deps, TITLE());
    const node = await sessionFromArgument(deps.sessions, argument);
    if (isForeign(node)) return reportForeignArgument(deps, TITLE(), node.refused);
    await deps.sessions.ready();
    if (node?.entry.kind === 'broken') return brokenRefusal(deps, TITLE(), node.entry);
    const given = node?.entry.kind === 'ledger' ? node.entry : undefined;
    const open = candidates(deps.sessions, (e) => e.ledger.status === 'open');
    if (!given && open.length === 0) return nothingToDo(l10n.t('there is no open session to close.'));
    const ask = () => deps.prompter.current;

    const steps: Step<CloseAnswers>[] = [
      async (s, at) => {
        if (given) return ((s.target = given), 'skip');
        return settle(
          await pickSession(ask(), 'close.session', STEP_TITLE(), open, at),
          (v) => (s.target = v),
        );
      },
      async (s, at) => {
        // `continue` is offered too: the engine refuses it (exit 2), and says why.
        const items = OUTCOMES.filter((o) => o !== 'continue').map((o) => ({ label: o, value: o }));
        return settle(
          await ask().pickOne({
            id: 'close.outcome',
            title: STEP_TITLE(),
            placeholder: l10n.t('How did the loop end?'),
            items,
            ...at,
          }),
          (v) => (s.outcome = v),
        );
      },
      async (s, at) =>
        s.outcome === 'escalate' ? askEscalateFields(ask, 'close', STEP_TITLE(), s, at) : 'skip',
      async (s, at) =>
        settle(
          await ask().inputText({
            id: 'close.note',
            title: STEP_TITLE(),
            prompt: l10n.t('A closing note (optional)'),
            value: s.note ?? '',
            ...at,
          }),
          (v) => (s.note = v),
        ),
      async (s) => {
        const confirmed = await ask().confirm({
          id: 'close.confirm',
          title: l10n.t('Close {0} as {1}?', s.target!.session, s.outcome!),
          detail:
            s.outcome === 'pause'
              ? l10n.t('A paused loop can be resumed later.')
              : l10n.t('A closed loop can only be re-opened as a new epoch.'),
          confirmLabel: l10n.t('Close Session'),
        });
        return confirmed ? 'next' : undefined;
      },
    ];
    const answers: CloseAnswers = {};
    if (!(await runSteps(answers, steps))) return CANCELLED;

    const target = answers.target!;
    const input: CloseInput = {
      outcome: answers.outcome!,
      blocker: answers.blocker,
      evidence: answers.evidence,
      recommendedNext: answers.recommendedNext,
      note: answers.note,
    };
    const cli = cliLine('close', [
      ['root', target.root],
      ['session', target.session],
      ['outcome', input.outcome],
      ['blocker', input.blocker],
      ['evidence', input.evidence],
      ['recommended-next', input.recommendedNext],
      ['note', input.note],
    ]);
    const outcome = await writeWithoutBlocking((lock) => closeOp(target.root, target.session, input, lock));
    await deps.sessions.refreshFile(target.path);
    if (outcome.exitCode !== 0 || !outcome.payload) return reportRefusal(deps, TITLE(), outcome, cli);
    deps.cliHistory.remember(target.root, target.session, 'close', cli);
    return reportDone(
      deps,
      l10n.t('{0}: closed ({1}).', target.session, outcome.payload.final_outcome),
      outcome.payload,
      { cli },
    );
  }
}
