import * as l10n from '@vscode/l10n';
import { resumeOp } from '../../app/operations';
import { resumeContinuesRepeatOnDiskAsync } from '../../app/repeat-resume';
import { resumeContinuesRepeat } from '../../engine/repeat/ledger';
import type { ResumePayload } from '../../engine/resume';
import type { Command } from '../commandManager';
import { runRepeatInWindow, type RepeatCommandReport } from '../repeat/runInWindow';
import { sessionState } from '../sessions/sessionEntry';
import { brokenRefusal } from './broken';
import { cliLine } from './cliHistory';
import type { CommandDeps, CommandReport } from './deps';
import {
  CANCELLED,
  nothingToDo,
  reportForeignArgument,
  reportDone,
  reportRefusal,
  reportUntrusted,
} from './report';
import { chooseSession } from './target';
import { writeWithoutBlocking } from '../workspace/ledgerWrites';

const TITLE = (): string => l10n.t('Resume');

/**
 * Re-opens a paused session through resumeOp (an open one is reported as it is). On a session
 * whose repeat is unfinished (interrupted, paused, or its follow-up unconfirmed) it continues the
 * repeat instead, as `loop-ledger resume` does: the same engine rule decides, and the run is the
 * one Repeat Until Settled… shows (progress with Cancel, the pending question as a quick pick).
 */
export class ResumeCommand implements Command {
  readonly id = 'loopLedger.resume';

  constructor(private readonly deps: CommandDeps) {}

  async execute(argument?: unknown): Promise<CommandReport<ResumePayload> | RepeatCommandReport> {
    const { deps } = this;
    if (!deps.trust.isTrusted) return reportUntrusted(deps, TITLE());
    const chosen = await chooseSession(deps.sessions, deps.prompter.current, argument, {
      id: 'resume.session',
      title: l10n.t('Loop Ledger: {0}', TITLE()),
      accept: (e) => sessionState(e.ledger) === 'paused' || resumeContinuesRepeat(e.ledger),
      none: l10n.t('there is no paused session to resume.'),
    });
    if (chosen === 'cancelled') return CANCELLED;
    if ('refused' in chosen) return reportForeignArgument(deps, TITLE(), chosen.refused);
    if ('none' in chosen) return nothingToDo(chosen.none);
    if (chosen.kind === 'broken') return brokenRefusal(deps, TITLE(), chosen);
    // Read fresh: the tree may not have seen the last write (a CLI run, a crash mid-repeat).
    if (await resumeContinuesRepeatOnDiskAsync(chosen.root, chosen.session))
      return runRepeatInWindow(deps, chosen);
    const cli = cliLine('resume', [
      ['root', chosen.root],
      ['session', chosen.session],
    ]);
    const outcome = await writeWithoutBlocking((lock) => resumeOp(chosen.root, chosen.session, lock));
    await deps.sessions.refreshFile(chosen.path);
    if (outcome.exitCode !== 0 || !outcome.payload) return reportRefusal(deps, TITLE(), outcome, cli);
    deps.cliHistory.remember(chosen.root, chosen.session, 'resume', cli);
    const p = outcome.payload;
    const message = p.completed_actions.length
      ? l10n.t(
          '{0}: {1}, next iteration {2} (resumed {3}×); completed: {4}.',
          p.session,
          p.status,
          p.next_iteration,
          p.resumed,
          p.completed_actions.join(', '),
        )
      : l10n.t(
          '{0}: {1}, next iteration {2} (resumed {3}×).',
          p.session,
          p.status,
          p.next_iteration,
          p.resumed,
        );
    return reportDone(deps, message, p, { cli });
  }
}
