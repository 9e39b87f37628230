// Runs contract checks off the extension host's thread. A small contract is checked inline (a
// worker round trip would cost more than the check); a large one goes to one long-lived worker
// thread. If the worker cannot start or dies, the check runs inline: findings are never lost.
// No `vscode` here, so the benchmark drives exactly this code.
import { Worker } from 'node:worker_threads';
import { computeContractCheck, type ContractCheckData } from './contractCheckData';
import type { CheckRequest } from './contractCheckWorker';

/** Below this many characters a check takes a few milliseconds: run it inline. */
export const INLINE_CHECK_CHARS = 32 * 1024;

type Reply = { id: number; data?: ContractCheckData; error?: string };

export class ContractCheckRunner {
  private worker: Worker | undefined;
  private nextId = 0;
  private readonly waiting = new Map<
    number,
    { resolve: (d: ContractCheckData) => void; reject: (e: Error) => void }
  >();
  private disposed = false;
  /** How many checks the worker answered (tests and the benchmark read it). */
  checkedInWorker = 0;

  /** `workerPath`: the bundled contractCheckWorker.js; undefined runs every check inline. */
  constructor(
    private readonly workerPath: string | undefined,
    private readonly inlineChars = INLINE_CHECK_CHARS,
  ) {}

  async check(root: string, text: string, label: string): Promise<ContractCheckData> {
    if (text.length < this.inlineChars || this.workerPath === undefined || this.disposed)
      return computeContractCheck(root, text, label);
    try {
      const data = await this.inWorker({ id: ++this.nextId, root, text, label });
      this.checkedInWorker += 1;
      return data;
    } catch {
      return computeContractCheck(root, text, label);
    }
  }

  private inWorker(request: CheckRequest): Promise<ContractCheckData> {
    const worker = this.ensureWorker();
    return new Promise((resolve, reject) => {
      this.waiting.set(request.id, { resolve, reject });
      worker.postMessage(request);
    });
  }

  private ensureWorker(): Worker {
    if (this.worker) return this.worker;
    const worker = new Worker(this.workerPath as string);
    // An idle worker must not keep a process alive (the benchmark, a test run).
    worker.unref();
    worker.on('message', (reply: Reply) => {
      const waiter = this.waiting.get(reply.id);
      if (!waiter) return;
      this.waiting.delete(reply.id);
      if (reply.data) waiter.resolve(reply.data);
      else waiter.reject(new Error(reply.error ?? 'the contract check worker gave no answer'));
    });
    const fail = (error: Error) => {
      if (this.worker === worker) this.worker = undefined;
      for (const waiter of this.waiting.values()) waiter.reject(error);
      this.waiting.clear();
    };
    worker.on('error', fail);
    worker.on('exit', (code) => fail(new Error(`the contract check worker exited with ${code}`)));
    this.worker = worker;
    return worker;
  }

  dispose(): void {
    this.disposed = true;
    void this.worker?.terminate();
    this.worker = undefined;
  }
}
