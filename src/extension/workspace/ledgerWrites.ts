// Writes from the extension host never wait synchronously for another writer's lock. The store
// waits by sleeping the thread (right for the CLI, a short-lived process); on the extension host
// that would freeze every extension in the window while an agent's CLI holds the lock. So the
// extension asks for one attempt (`waitMs: 0`) and, while the ledger is busy, tries again on
// timers until the same deadline the CLI uses, then reports the ledger busy.
import { LEDGER_BUSY, type LockOptions } from '../../app/ledger/lock-options';
import type { Outcome } from '../../app/outcome';
import { EXIT } from '../../engine/refusal';

/** The CLI's own wait for a busy ledger: the extension gives up at the same moment. */
export const LEDGER_BUSY_DEADLINE_MS = 2_000;
const FIRST_RETRY_MS = 5;
const MAX_RETRY_MS = 100;

export interface RetryClock {
  now(): number;
  sleep(ms: number): Promise<void>;
}

const realClock: RetryClock = {
  now: () => performance.now(),
  sleep: (ms) => new Promise((resolve) => setTimeout(resolve, ms)),
};

export function isBusy(outcome: Outcome<unknown>): boolean {
  return outcome.exitCode === EXIT.wrongState && outcome.findings.some((f) => f.code === LEDGER_BUSY);
}

/**
 * Runs a write operation with single lock attempts, retrying asynchronously while the ledger is
 * busy. Each attempt is a few synchronous milliseconds (read, decide, atomic write); the waits
 * between attempts leave the event loop free.
 */
export async function writeWithoutBlocking<P>(
  op: (lock: LockOptions) => Outcome<P>,
  clock: RetryClock = realClock,
  deadlineMs: number = LEDGER_BUSY_DEADLINE_MS,
): Promise<Outcome<P>> {
  const started = clock.now();
  let delay = FIRST_RETRY_MS;
  for (;;) {
    const outcome = op({ waitMs: 0 });
    if (!isBusy(outcome)) return outcome;
    const left = started + deadlineMs - clock.now();
    if (left <= 0) return withWaitedTime(outcome, clock.now() - started);
    // Jitter keeps the extension and a CLI retrying in lockstep from colliding forever.
    await clock.sleep(Math.min(left, Math.ceil(delay * (0.5 + Math.random()))));
    delay = Math.min(delay * 2, MAX_RETRY_MS);
  }
}

/** The store timed one attempt; the user waited for all of them. */
function withWaitedTime<P>(outcome: Outcome<P>, waitedMs: number): Outcome<P> {
  const waited = `gave up after ${Math.round(waitedMs)} ms`;
  return {
    ...outcome,
    findings: outcome.findings.map((f) => {
      if (f.code !== LEDGER_BUSY) return f;
      const message = /gave up after \d+ ms/.test(f.message)
        ? f.message.replace(/gave up after \d+ ms/, waited)
        : `${f.message} (${waited})`;
      return { ...f, message };
    }),
  };
}
