// One long-lived worker thread answering numbered requests, shared by the runners that keep big
// work off the extension host's thread (contract checks, session overviews). The worker is
// started on the first request and unref'd (an idle worker keeps no process alive); if it fails
// or exits, every waiting request is rejected and the next request starts a new one, so a caller
// can always fall back to doing the work inline. No `vscode` here: the benchmarks drive it too.
import { Worker } from 'node:worker_threads';

type Waiter<Reply> = { resolve: (reply: Reply) => void; reject: (error: Error) => void };

export class WorkerChannel<Request extends object, Reply extends { id: number }> {
  private worker: Worker | undefined;
  private nextId = 0;
  private readonly waiting = new Map<number, Waiter<Reply>>();

  /** `name` words the exit error ("the overview worker exited with 1"). */
  constructor(
    private readonly workerPath: string,
    private readonly name: string,
  ) {}

  /** Sends `request` with a fresh `id`; resolves with the worker's reply carrying that id. */
  request(request: Request): Promise<Reply> {
    const worker = this.ensureWorker();
    const id = ++this.nextId;
    return new Promise((resolve, reject) => {
      this.waiting.set(id, { resolve, reject });
      worker.postMessage({ ...request, id });
    });
  }

  dispose(): void {
    void this.worker?.terminate();
    this.worker = undefined;
  }

  private ensureWorker(): Worker {
    if (this.worker) return this.worker;
    const worker = new Worker(this.workerPath);
    worker.unref();
    worker.on('message', (reply: Reply) => {
      const waiter = this.waiting.get(reply.id);
      if (!waiter) return;
      this.waiting.delete(reply.id);
      waiter.resolve(reply);
    });
    const fail = (error: Error) => {
      if (this.worker === worker) this.worker = undefined;
      for (const waiter of this.waiting.values()) waiter.reject(error);
      this.waiting.clear();
    };
    worker.on('error', fail);
    worker.on('exit', (code) => fail(new Error(`the ${this.name} exited with ${code}`)));
    this.worker = worker;
    return worker;
  }
}
