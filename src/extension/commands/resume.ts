import * as l10n from '@vscode/l10n';
import { resumeOp } from '../../app/ledger/operations';
import { resumeContinuesRepeatNowAsync } from '../../app/repeat/resume';
import { resumeContinuesRepeat } from '../../engine/repeat/ledger';
import type { ResumePayload } from '../../engine/resume';
import { runRepeatInWindow, type RepeatCommandReport } from '../repeat/runInWindow';
import { sessionState, type ReadableSession } from '../sessions/sessionEntry';
import { windowLedgers } from '../store/driverLedgers';
import { cliLine } from './cliHistory';
import type { CommandReport } from './deps';
import { reportDone } from './report';
import { SessionCommand, type PickFirst } from './sessionCommand';

const TITLE = (): string => l10n.t('Resume');

/**
 * Re-opens a paused session through resumeOp (an open one is reported as it is). On a session
 * whose repeat is unfinished (interrupted, paused, or its follow-up unconfirmed) it continues the
 * repeat instead, as `loop-ledger resume` does: the same engine rule decides, and the run is the
 * one Repeat Until Settled… shows (progress with Cancel, the pending question as a quick pick).
 */
export class ResumeCommand extends SessionCommand<
  CommandReport<ResumePayload> | RepeatCommandReport,
  PickFirst
> {
  readonly id = 'loopLedger.resume';
  protected readonly needsTrust = true;
  protected readonly target: PickFirst = {
    ask: 'first',
    id: 'resume.session',
    title: () => l10n.t('Loop Ledger: {0}', TITLE()),
    accept: (e) => sessionState(e.ledger) === 'paused' || resumeContinuesRepeat(e.ledger),
    none: () => l10n.t('there is no paused session to resume.'),
  };

  protected title(): string {
    return TITLE();
  }

  protected async run(chosen: ReadableSession): Promise<CommandReport<ResumePayload> | RepeatCommandReport> {
    const { deps } = this;
    // Read fresh (from the store on a store window): the tree may not have seen the last write
    // (a CLI run, a crash mid-repeat).
    const ledgers = windowLedgers(deps.sessions, chosen.root);
    if (await resumeContinuesRepeatNowAsync(chosen.root, chosen.session, ledgers))
      return runRepeatInWindow(deps, chosen);
    const cli = this.cliFor(
      chosen.root,
      cliLine('resume', [
        ['root', chosen.root],
        ['session', chosen.session],
      ]),
    );
    const written = await this.write(
      chosen,
      cli,
      (lock) => resumeOp(chosen.root, chosen.session, lock),
      () => 'resume',
      (store) => store.resume(chosen.session),
    );
    if ('refused' in written) return written.refused;
    const p = written.payload;
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
