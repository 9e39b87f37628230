import assert from 'node:assert/strict';
import { LEDGER_BUSY, type LockOptions } from '../../../src/app/ledger/lock-options';
import { iterateOp, type Outcome } from '../../../src/app/ledger/operations';
import {
  LEDGER_BUSY_DEADLINE_MS,
  writeWithoutBlocking,
  type RetryClock,
} from '../../../src/extension/workspace/ledgerWrites';
import { ledgerPath, readLedger } from '../helpers/cli';
import { holdLock } from '../helpers/lock-holder';
import { loopWith } from '../cli/setup';

const busy: Outcome<string> = {
  exitCode: 3,
  findings: [
    { message: 's: ledger x is busy: locked by pid 1 on h since t; gave up after 0 ms', code: LEDGER_BUSY },
  ],
};

function fakeClock(): RetryClock & { slept: number[] } {
  let now = 0;
  const slept: number[] = [];
  return {
    slept,
    now: () => now,
    sleep: async (ms) => {
      slept.push(ms);
      now += ms;
    },
  };
}

describe('extension: ledger writes never wait synchronously', () => {
  it('asks the store for one attempt each time and retries on timers while busy', async () => {
    const asked: LockOptions[] = [];
    const clock = fakeClock();
    const outcome = await writeWithoutBlocking((lock) => {
      asked.push(lock);
      return asked.length < 3 ? busy : { exitCode: 0, payload: 'written', findings: [] };
    }, clock);
    assert.equal(outcome.payload, 'written');
    assert.deepEqual(asked, [{ waitMs: 0 }, { waitMs: 0 }, { waitMs: 0 }]);
    assert.equal(clock.slept.length, 2);
  });

  it("gives up at the CLI's deadline and says how long it waited", async () => {
    const clock = fakeClock();
    const outcome = await writeWithoutBlocking(() => busy, clock);
    assert.equal(outcome.exitCode, 3);
    assert.equal(clock.now(), LEDGER_BUSY_DEADLINE_MS);
    assert.match(outcome.findings[0]!.message, /gave up after 2000 ms$/);
  });

  it('returns any other refusal at once, without retrying', async () => {
    let calls = 0;
    const clock = fakeClock();
    const outcome = await writeWithoutBlocking(() => {
      calls += 1;
      return { exitCode: 3, findings: [{ message: 's: ledger is closed' }] };
    }, clock);
    assert.equal(calls, 1);
    assert.equal(outcome.findings[0]!.message, 's: ledger is closed');
  });

  it('while a CLI holds the lock, the event loop keeps turning and the write lands after release', async () => {
    const loop = loopWith();
    const held = await holdLock(ledgerPath(loop.root, loop.session), 600);
    let ticks = 0;
    const ticker = setInterval(() => (ticks += 1), 10);
    try {
      const outcome = await writeWithoutBlocking((lock) =>
        iterateOp(loop.root, loop.session, { outcome: 'continue', actions: ['a-1'], now: new Date() }, lock),
      );
      assert.equal(outcome.exitCode, 0, outcome.findings.map((f) => f.message).join('; '));
    } finally {
      clearInterval(ticker);
    }
    assert.equal(await held.exited, 0);
    // A synchronous wait would have let no timer fire until the lock was released.
    assert.ok(ticks >= 5, `timers ran while waiting (${ticks} ticks)`);
    assert.equal(readLedger(loop.root, loop.session).iterations.length, 1);
  });
});
