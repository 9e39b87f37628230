import * as l10n from '@vscode/l10n';
import { iterateOp } from '../../app/operations';
import type { EngineeringIterateInput } from '../../engine/engineering/iterate';
import type { IterationRecord } from '../../engine/types';
import { runSteps } from '../input';
import { promotionText } from '../sessions/labels';
import type { Command } from '../commandManager';
import { cliLine } from './cliHistory';
import type { CommandDeps, CommandReport } from './deps';
import { recordSteps, type RecordAnswers } from './recordIterationSteps';
import {
  CANCELLED,
  nothingToDo,
  reportForeignArgument,
  reportDone,
  reportRefusal,
  reportUntrusted,
} from './report';
import { candidates, isForeign, sessionFromArgument } from './target';
import { brokenRefusal } from './broken';
import { writeWithoutBlocking } from '../workspace/ledgerWrites';
import { formatScore } from '../../shared/numbers';

const TITLE = (): string => l10n.t('Record Iteration');

/**
 * Records one iteration from a multi-step quick input: session → outcome → actions →
 * measurements (prefilled with the last reading) → details → escalate fields. The answers go to
 * iterateOp unchanged; a refusal writes nothing and is shown with the engine's findings.
 */
export class RecordIterationCommand implements Command {
  readonly id = 'loopLedger.recordIteration';

  constructor(private readonly deps: CommandDeps) {}

  async execute(argument?: unknown): Promise<CommandReport<IterationRecord>> {
    const { deps } = this;
    if (!deps.trust.isTrusted) return reportUntrusted(deps, TITLE());
    const node = await sessionFromArgument(deps.sessions, argument);
    if (isForeign(node)) return reportForeignArgument(deps, TITLE(), node.refused);
    await deps.sessions.ready();
    if (node?.entry.kind === 'broken') return brokenRefusal(deps, TITLE(), node.entry);
    const given = node?.entry.kind === 'ledger' ? node.entry : undefined;
    const open = () => candidates(deps.sessions, (e) => e.ledger.status === 'open');
    if (!given && open().length === 0)
      return nothingToDo(l10n.t('there is no open session to record an iteration in. Open a loop first.'));

    const answers: RecordAnswers = { actions: [], measures: [], details: [], evidencePaths: [], spent: [] };
    const steps = recordSteps(() => deps.prompter.current, open, given);
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
    const cli = iterateCli(target.root, target.session, input);
    const outcome = await writeWithoutBlocking((lock) => iterateOp(target.root, target.session, input, lock));
    await deps.sessions.refreshFile(target.path);
    if (outcome.exitCode !== 0 || !outcome.payload) return reportRefusal(deps, TITLE(), outcome, cli);
    deps.cliHistory.remember(target.root, target.session, `iterate #${outcome.payload.n}`, cli);
    const record = outcome.payload;
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
