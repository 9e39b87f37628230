import type { Command } from '../commandManager';
import type { CommandDeps } from './deps';

/** Re-reads every ledger (the view's title-bar button); the watcher normally makes this unneeded. */
export class RefreshSessionsCommand implements Command {
  readonly id = 'loopLedger.refreshSessions';

  constructor(private readonly deps: CommandDeps) {}

  async execute(): Promise<number> {
    await this.deps.sessions.refreshAll();
    return this.deps.sessions.sessionNodes().length;
  }
}
