import * as l10n from '@vscode/l10n';
import { closeOp, type ClosePayload } from '../../app/ledger/operations';
import type { CloseInput } from '../../engine/close';
import { OUTCOMES, type Outcome } from '../../engine/types';
import { runSteps, settle, type Step } from '../input';
import type { ReadableSession } from '../sessions/sessionEntry';
import { cliLine } from './cliHistory';
import { askEscalateFields } from './escalateStep';
import type { CommandReport } from './deps';
import { CANCELLED, reportDone } from './report';
import { SessionCommand, type PickInSteps, type StepsTarget } from './sessionCommand';
import { pickSession } from './target';

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
export class CloseCommand extends SessionCommand<CommandReport<ClosePayload>, PickInSteps> {
  readonly id = 'loopLedger.close';
  protected readonly needsTrust = true;
  protected readonly target: PickInSteps = {
    ask: 'in-steps',
    accept: (e) => e.ledger.status === 'open',
    none: () => l10n.t('there is no open session to close.'),
  };

  protected title(): string {
    return TITLE();
  }

  protected async run({ given, candidates }: StepsTarget): Promise<CommandReport<ClosePayload>> {
    const { deps } = this;
    const open = candidates();
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
    const cli = this.cliFor(
      target.root,
      cliLine('close', [
        ['root', target.root],
        ['session', target.session],
        ['outcome', input.outcome],
        ['blocker', input.blocker],
        ['evidence', input.evidence],
        ['recommended-next', input.recommendedNext],
        ['note', input.note],
      ]),
    );
    const written = await this.write(
      target,
      cli,
      (lock) => closeOp(target.root, target.session, input, lock),
      () => 'close',
      (store) => store.close(target.session, input),
    );
    if ('refused' in written) return written.refused;
    return reportDone(
      deps,
      l10n.t('{0}: closed ({1}).', target.session, written.payload.final_outcome),
      written.payload,
      { cli },
    );
  }
}
