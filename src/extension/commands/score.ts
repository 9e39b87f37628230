import * as l10n from '@vscode/l10n';
import { scoreOpAsync } from '../../app/ledger/read-operations-async';
import { deriveBaseline } from '../../engine/baseline';
import type { Evaluation } from '../../engine/types';
import { askEach, BACK } from '../input';
import type { ReadableSession } from '../sessions/sessionEntry';
import { cliLine } from './cliHistory';
import type { CommandReport } from './deps';
import { CANCELLED, reportDone } from './report';
import { SessionCommand, type PickFirst } from './sessionCommand';
import { formatScore } from '../../shared/numbers';

const TITLE = (): string => l10n.t('Score');

/**
 * Scores one measurement per rubric dimension against a session's contract through scoreOpAsync.
 * Writes nothing, so it works in an untrusted workspace and on closed sessions.
 */
export class ScoreCommand extends SessionCommand<CommandReport<Evaluation>, PickFirst> {
  readonly id = 'loopLedger.score';
  protected readonly needsTrust = false;
  protected readonly target: PickFirst = {
    ask: 'first',
    id: 'score.session',
    title: () => l10n.t('Loop Ledger: {0}', TITLE()),
    accept: (e) => (e.ledger.contract.quality_rubric ?? []).length > 0,
    none: () => l10n.t('no session has a quality rubric to score against.'),
  };

  protected title(): string {
    return TITLE();
  }

  protected async run(chosen: ReadableSession): Promise<CommandReport<Evaluation>> {
    const { deps } = this;
    const prompter = deps.prompter.current;
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
    const scored = this.accepted(chosen, outcome, cli, () => 'score', false);
    if ('refused' in scored) return scored.refused;
    const p = scored.payload;
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
