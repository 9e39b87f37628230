import * as l10n from '@vscode/l10n';
import { scoreOpAsync } from '../../app/read-operations-async';
import { deriveBaseline } from '../../engine/baseline';
import type { Evaluation } from '../../engine/types';
import type { Command } from '../commandManager';
import { askEach, BACK } from '../input';
import { brokenRefusal } from './broken';
import { cliLine } from './cliHistory';
import type { CommandDeps, CommandReport } from './deps';
import { CANCELLED, nothingToDo, reportForeignArgument, reportDone, reportRefusal } from './report';
import { chooseSession } from './target';
import { formatScore } from '../../shared/numbers';

const TITLE = (): string => l10n.t('Score');

/**
 * Scores one measurement per rubric dimension against a session's contract through scoreOpAsync.
 * Writes nothing, so it works in an untrusted workspace and on closed sessions.
 */
export class ScoreCommand implements Command {
  readonly id = 'loopLedger.score';

  constructor(private readonly deps: CommandDeps) {}

  async execute(argument?: unknown): Promise<CommandReport<Evaluation>> {
    const { deps } = this;
    const prompter = deps.prompter.current;
    const chosen = await chooseSession(deps.sessions, prompter, argument, {
      id: 'score.session',
      title: l10n.t('Loop Ledger: {0}', TITLE()),
      accept: (e) => (e.ledger.contract.quality_rubric ?? []).length > 0,
      none: l10n.t('no session has a quality rubric to score against.'),
    });
    if (chosen === 'cancelled') return CANCELLED;
    if ('refused' in chosen) return reportForeignArgument(deps, TITLE(), chosen.refused);
    if ('none' in chosen) return nothingToDo(chosen.none);
    if (chosen.kind === 'broken') return brokenRefusal(deps, TITLE(), chosen);
    const rubric = chosen.ledger.contract.quality_rubric ?? [];
    const last = deriveBaseline(chosen.ledger);
    const values = await askEach(rubric, (dim, index) =>
      prompter.inputText({
        id: `score.measure.${dim.dimension}`,
        title: l10n.t('Loop Ledger: Score {0}', chosen.session),
        step: index + 1,
        totalSteps: rubric.length,
        canGoBack: index > 0,
        prompt: l10n.t(
          '{0}: {1}, target {2}, failure threshold {3}{4}',
          dim.dimension,
          dim.direction,
          dim.target,
          dim.failure_threshold,
          dim.hard_gate ? l10n.t(', hard gate') : '',
        ),
        value: last[dim.dimension] === undefined ? '' : String(last[dim.dimension]),
      }),
    );
    if (values === undefined || values === BACK) return CANCELLED;
    const measures = values.map((v, i) => `${rubric[i]!.dimension}=${v.trim()}`);
    const cli = cliLine('score', [
      ['root', chosen.root],
      ['session', chosen.session],
      ['measure', measures],
    ]);
    const outcome = await scoreOpAsync(chosen.root, chosen.session, measures);
    // Exit 6 carries the payload: scored, with a hard gate breached. Shown as a warning, not a refusal.
    if (!outcome.payload) return reportRefusal(deps, TITLE(), outcome, cli);
    deps.cliHistory.remember(chosen.root, chosen.session, 'score', cli);
    const p = outcome.payload;
    const message = p.hard_gate_failures.length
      ? l10n.t(
          '{0}: rubric {1}, weighted total {2}; hard gates breached: {3}.',
          chosen.session,
          p.verdict,
          formatScore(p.weighted_total),
          p.hard_gate_failures.join(', '),
        )
      : l10n.t(
          '{0}: rubric {1}, weighted total {2}.',
          chosen.session,
          p.verdict,
          formatScore(p.weighted_total),
        );
    return reportDone(deps, message, p, {
      cli,
      exitCode: outcome.exitCode,
      warn: p.verdict === 'fail',
    });
  }
}
