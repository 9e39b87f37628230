import * as l10n from '@vscode/l10n';
import { statusOpAsync } from '../../app/read-operations-async';
import type { StatusPayload } from '../../engine/status';
import type { Command } from '../commandManager';
import { progressText, stateText } from '../sessions/labels';
import { currentEpochView } from '../sessions/epochs';
import { brokenRefusal as broken } from './broken';
import { cliLine } from './cliHistory';
import type { CommandDeps, CommandReport } from './deps';
import { CANCELLED, nothingToDo, reportForeignArgument, reportDone, reportRefusal } from './report';
import { chooseSession } from './target';
import { formatScore } from '../../shared/numbers';

const TITLE = (): string => l10n.t('Show Status');

/** What `loop-ledger status` says about a session, read through statusOpAsync (no
 * synchronous read on the extension host). Read-only. */
export class ShowStatusCommand implements Command {
  readonly id = 'loopLedger.showStatus';

  constructor(private readonly deps: CommandDeps) {}

  async execute(argument?: unknown): Promise<CommandReport<StatusPayload>> {
    const { deps } = this;
    // From the palette with exactly one session row selected: that session, without asking.
    const selected = (deps.selection?.() ?? []).filter((node) => node.kind !== 'folder');
    const target = argument ?? (selected.length === 1 ? selected[0] : undefined);
    const chosen = await chooseSession(deps.sessions, deps.prompter.current, target, {
      id: 'status.session',
      title: l10n.t('Loop Ledger: {0}', TITLE()),
      accept: () => true,
      none: l10n.t('there are no sessions in this workspace yet.'),
    });
    if (chosen === 'cancelled') return CANCELLED;
    if ('refused' in chosen) return reportForeignArgument(deps, TITLE(), chosen.refused);
    if ('none' in chosen) return nothingToDo(chosen.none);
    if (chosen.kind === 'broken') return broken(deps, TITLE(), chosen);
    const cli = cliLine('status', [
      ['root', chosen.root],
      ['session', chosen.session],
    ]);
    const outcome = await statusOpAsync(chosen.root, chosen.session);
    const payload = outcome.payload;
    // Exit 4 (no iterations yet) still carries the payload: it is a status, not a failure here.
    if (!payload) return reportRefusal(deps, TITLE(), outcome, cli);
    deps.cliHistory.remember(chosen.root, chosen.session, 'status', cli);
    deps.output.appendLine(JSON.stringify(payload, null, 2));
    const epoch = chosen.kind === 'ledger' ? currentEpochView(chosen.ledger) : undefined;
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
