// Runs contract checks off the extension host's thread. A small contract is checked inline (a
// worker round trip would cost more than the check); a large one goes to one long-lived worker
// thread. If the worker cannot start or dies, the check runs inline: findings are never lost.
// No `vscode` here, so the benchmark drives exactly this code.
import { computeContractCheck, type ContractCheckData } from './contractCheckData';
import type { CheckRequest } from './contractCheckWorker';
import { WorkerChannel } from '../workerChannel';

/** Below this many characters a check takes a few milliseconds: run it inline. */
export const INLINE_CHECK_CHARS = 32 * 1024;

type Reply = { id: number; data?: ContractCheckData; error?: string };

export class ContractCheckRunner {
  private readonly channel: WorkerChannel<Omit<CheckRequest, 'id'>, Reply> | undefined;
  private disposed = false;
  /** How many checks the worker answered (tests and the benchmark read it). */
  checkedInWorker = 0;

  /** `workerPath`: the bundled contractCheckWorker.js; undefined runs every check inline. */
  constructor(
    workerPath: string | undefined,
    private readonly inlineChars = INLINE_CHECK_CHARS,
  ) {
    this.channel =
      workerPath === undefined ? undefined : new WorkerChannel(workerPath, 'contract check worker');
  }

  async check(root: string, text: string, label: string): Promise<ContractCheckData> {
    if (text.length < this.inlineChars || this.channel === undefined || this.disposed)
      return computeContractCheck(root, text, label);
    try {
      const reply = await this.channel.request({ root, text, label });
      if (!reply.data) throw new Error(reply.error ?? 'the contract check worker gave no answer');
      this.checkedInWorker += 1;
      return reply.data;
    } catch {
      return computeContractCheck(root, text, label);
    }
  }

  dispose(): void {
    this.disposed = true;
    this.channel?.dispose();
  }
}
