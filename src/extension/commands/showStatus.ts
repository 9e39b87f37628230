import * as l10n from '@vscode/l10n';
import { statusOpAsync } from '../../app/ledger/read-operations-async';
import type { StatusPayload } from '../../engine/status';
import { progressText, stateText } from '../sessions/labels';
import { currentEpochView } from '../sessions/epochs';
import type { ReadableSession } from '../sessions/sessionEntry';
import { cliLine } from './cliHistory';
import type { CommandReport } from './deps';
import { reportDone } from './report';
import { SessionCommand, type PickFirst } from './sessionCommand';
import { formatScore } from '../../shared/numbers';

const TITLE = (): string => l10n.t('Show Status');

/** What `loop-ledger status` says about a session, read through statusOpAsync (no
 * synchronous read on the extension host). Read-only. */
export class ShowStatusCommand extends SessionCommand<CommandReport<StatusPayload>, PickFirst> {
  readonly id = 'loopLedger.showStatus';
  protected readonly needsTrust = false;
  protected readonly target: PickFirst = {
    ask: 'first',
    id: 'status.session',
    title: () => l10n.t('Loop Ledger: {0}', TITLE()),
    accept: () => true,
    none: () => l10n.t('there are no sessions in this workspace yet.'),
  };

  protected title(): string {
    return TITLE();
  }

  /** From the palette with exactly one session row selected: that session, without asking. */
  protected override targetArgument(argument: unknown): unknown {
    const selected = (this.deps.selection?.() ?? []).filter((node) => node.kind !== 'folder');
    return argument ?? (selected.length === 1 ? selected[0] : undefined);
  }

  protected async run(chosen: ReadableSession): Promise<CommandReport<StatusPayload>> {
    const { deps } = this;
    const cli = cliLine('status', [
      ['root', chosen.root],
      ['session', chosen.session],
    ]);
    const outcome = await statusOpAsync(chosen.root, chosen.session);
    // Exit 4 (no iterations yet) still carries the payload: it is a status, not a failure here.
    const read = this.accepted(chosen, outcome, cli, () => 'status', false);
    if ('refused' in read) return read.refused;
    const payload = read.payload;
    deps.output.appendLine(JSON.stringify(payload, null, 2));
    const epoch = currentEpochView(chosen.ledger, chosen.held);
    const parts = [
      `${payload.session}: ${stateText(epoch?.state ?? 'open', payload.final_outcome)}`,
      l10n.t('epoch {0}', payload.epoch),
      epoch
        ? l10n.t('{0} iterations this epoch', progressText(epoch))
        : l10n.t('{0} iterations', payload.iterations),
      payload.last_outcome ? l10n.t('last {0}', payload.last_outcome) : l10n.t('no iterations yet'),
      payload.rubric_verdict
        ? l10n
            .t(
              'rubric {0} {1}',
              payload.rubric_verdict,
              payload.weighted_total === null ? '' : formatScore(payload.weighted_total),
            )
            .trimEnd()
        : l10n.t('not scored'),
    ];
    if (payload.critic_verdict) parts.push(l10n.t('critic {0}', payload.critic_verdict));
    if (payload.stalls.length) parts.push(l10n.t('stalls: {0}', payload.stalls.join(', ')));
    return reportDone(deps, parts.join(' · '), payload, { cli, exitCode: outcome.exitCode });
  }
}
