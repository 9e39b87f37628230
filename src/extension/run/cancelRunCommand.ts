// Cancel Run: aborts the session's run in progress (its process groups get SIGTERM, 2 s, SIGKILL);
// the harness writes cancelled.json and records `pause`, and Run Loop on the session continues it.
import * as l10n from '@vscode/l10n';
import type { Command } from '../commandManager';
import type { CommandReport } from '../commands/deps';
import { nothingToDo } from '../commands/report';
import { sessionOf, type SessionsNode } from '../sessions/nodes';
import { liveRuns } from './liveRuns';

export class CancelRunCommand implements Command {
  readonly id = 'loopLedger.cancelRun';

  execute(argument?: unknown): CommandReport {
    const node =
      typeof argument === 'object' && argument !== null && 'kind' in argument
        ? sessionOf(argument as SessionsNode)
        : undefined;
    const run = node ? liveRuns.get(node.root.path, node.entry.session) : liveRuns.all()[0];
    if (!run) return nothingToDo(l10n.t('no run is in progress.'));
    run.controller.abort();
    return { status: 'done', message: l10n.t('cancelling run {0}', run.runId) };
  }
}
