import * as l10n from '@vscode/l10n';
import { iterateOp } from '../../app/ledger/operations';
import type { EngineeringIterateInput } from '../../engine/engineering/iterate';
import type { IterationRecord } from '../../engine/types';
import { runSteps } from '../input';
import { promotionText } from '../sessions/labels';
import { cliLine } from './cliHistory';
import type { CommandReport } from './deps';
import { recordSteps, type RecordAnswers } from './recordIterationSteps';
import { CANCELLED, reportDone } from './report';
import { SessionCommand, type PickInSteps, type StepsTarget } from './sessionCommand';
import { formatScore } from '../../shared/numbers';

const TITLE = (): string => l10n.t('Record Iteration');

/**
 * Records one iteration from a multi-step quick input: session → outcome → actions →
 * measurements (prefilled with the last reading) → details → escalate fields. The answers go to
 * iterateOp unchanged; a refusal writes nothing and is shown with the engine's findings.
 */
export class RecordIterationCommand extends SessionCommand<CommandReport<IterationRecord>, PickInSteps> {
  readonly id = 'loopLedger.recordIteration';
  protected readonly needsTrust = true;
  protected readonly target: PickInSteps = {
    ask: 'in-steps',
    accept: (e) => e.ledger.status === 'open',
    none: () => l10n.t('there is no open session to record an iteration in. Open a loop first.'),
  };

  protected title(): string {
    return TITLE();
  }

  protected async run({ given, candidates }: StepsTarget): Promise<CommandReport<IterationRecord>> {
    const { deps } = this;
    const answers: RecordAnswers = { actions: [], measures: [], details: [], evidencePaths: [], spent: [] };
    const steps = recordSteps(() => deps.prompter.current, candidates, given);
    if (!(await runSteps(answers, steps))) return CANCELLED;

    const target = answers.target!;
    const input: EngineeringIterateInput = {
      outcome: answers.outcome!,
      actions: answers.actions,
      measures: answers.measures,
      state: answers.state,
      error: answers.error,
      dependencyMissing: answers.dependencyMissing,
      evidencePaths: answers.evidencePaths,
      note: answers.note,
      blocker: answers.blocker,
      evidence: answers.evidence,
      recommendedNext: answers.recommendedNext,
      // Loop-engineering facts (asked only for a session opened with --engineering).
      spent: answers.spent,
      termination: answers.termination,
      noOp: answers.noOp,
      eligibleCount: answers.eligibleCount,
      outputCount: answers.outputCount,
      sideEffects: answers.sideEffects,
      now: deps.now(),
    };
    const cli = this.cliFor(target.root, iterateCli(target.root, target.session, input));
    const written = await this.write(
      target,
      cli,
      (lock) => iterateOp(target.root, target.session, input, lock),
      (record) => `iterate #${record.n}`,
      (store) => store.iterate(target.session, input),
    );
    if ('refused' in written) return written.refused;
    const record = written.payload;
    if (record.stall && record.reported_outcome !== record.outcome) {
      return reportDone(
        deps,
        l10n.t('{0}: iteration {1} {2}.', target.session, record.n, promotionText(record)),
        record,
        {
          cli,
          warn: true,
        },
      );
    }
    const message = record.evaluation
      ? l10n.t(
          '{0}: iteration {1} recorded: {2}; rubric {3} {4}.',
          target.session,
          record.n,
          record.outcome,
          record.evaluation.verdict,
          formatScore(record.evaluation.weighted_total),
        )
      : l10n.t('{0}: iteration {1} recorded: {2}.', target.session, record.n, record.outcome);
    return reportDone(deps, message, record, { cli });
  }
}

export function iterateCli(root: string, session: string, input: EngineeringIterateInput): string {
  return cliLine('iterate', [
    ['root', root],
    ['session', session],
    ['outcome', input.outcome],
    ['action', input.actions],
    ['measure', input.measures],
    ['state', input.state],
    ['error', input.error],
    ['dependency-missing', input.dependencyMissing],
    ['evidence-path', input.evidencePaths],
    ['blocker', input.blocker],
    ['evidence', input.evidence],
    ['recommended-next', input.recommendedNext],
    ['note', input.note],
    ['spent', input.spent],
    ['termination', input.termination],
    ['no-op', input.noOp],
    ['eligible-count', input.eligibleCount],
    ['output-count', input.outputCount],
    ['side-effects', input.sideEffects],
  ]);
}
