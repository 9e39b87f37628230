import type { Command } from '../commandManager';
import type { OlderNode } from './nodes';
import type { SessionsTreeProvider } from './treeProvider';
import { SHOW_OLDER_COMMAND } from './treeItems';

/**
 * The click on "Show older iterations…" under an epoch of a long ledger (hidden from the palette:
 * it needs the row). Resolves with how many rows it added; anything but such a row adds none.
 */
export class ShowOlderIterationsCommand implements Command {
  readonly id = 'loopLedger.showOlderIterations' satisfies typeof SHOW_OLDER_COMMAND;

  constructor(private readonly provider: SessionsTreeProvider) {}

  execute(node: unknown): Promise<number> {
    const row = node as Partial<OlderNode> | undefined;
    return row?.kind === 'older' && row.parent !== undefined
      ? this.provider.showOlder(row as OlderNode)
      : Promise.resolve(0);
  }
}
