// A large contract is checked in a worker thread, so the extension host's event
// loop keeps turning while it is parsed, validated and located. The worker gives exactly the
// inline check's answer; a worker that cannot start falls back to the inline check.
import assert from 'node:assert/strict';
import { resolve } from 'node:path';
import { computeContractCheck, MAX_SHOWN_FINDINGS } from '../../../src/extension/contract/contractCheckData';
import { ContractCheckRunner } from '../../../src/extension/contract/contractCheckRunner';
import { sampleContract } from '../helpers/cli';

const WORKER = resolve(__dirname, '../../../../dist/contractCheckWorker.js');

/** A contract of about `bytes` whose every extra top-level key is a finding. */
function contractOf(bytes: number): string {
  const contract: Record<string, unknown> = sampleContract();
  for (let i = 0; i < bytes / 30; i++) contract[`unknown_key_${i}`] = i;
  return JSON.stringify(contract, null, 2);
}

/** Runs `work` and counts the event-loop turns (setImmediate) that happened while it ran. */
async function turnsDuring<T>(work: () => Promise<T>): Promise<{ result: T; turns: number }> {
  let turns = 0;
  let running = true;
  const spin = () => {
    if (!running) return;
    turns += 1;
    setImmediate(spin);
  };
  setImmediate(spin);
  const result = await work();
  running = false;
  return { result, turns };
}

describe('contract editor: large contracts are checked off the host thread', function () {
  this.timeout(60_000);
  const root = process.cwd();
  const big = contractOf(400 * 1024);

  it('a worker answers a large contract with exactly the inline check, and the loop keeps turning', async () => {
    const runner = new ContractCheckRunner(WORKER);
    try {
      const { result, turns } = await turnsDuring(() => runner.check(root, big, 'big.loop-contract.json'));
      assert.equal(runner.checkedInWorker, 1);
      assert.deepEqual(result, computeContractCheck(root, big, 'big.loop-contract.json'));
      assert.equal(result.shown.length, MAX_SHOWN_FINDINGS);
      assert.ok(result.hidden > 10_000, `${result.hidden} hidden findings`);
      assert.ok(turns > 0, 'the event loop turned while the worker checked');
    } finally {
      runner.dispose();
    }
  });

  it('inline (no worker), the same check blocks the loop: not one turn until it is done', async () => {
    const runner = new ContractCheckRunner(undefined);
    const { turns } = await turnsDuring(() => runner.check(root, big, 'big.loop-contract.json'));
    assert.equal(turns, 0);
  });

  it('a small contract is checked inline; a valid one counts its dimensions', async () => {
    const runner = new ContractCheckRunner(WORKER);
    try {
      const result = await runner.check(root, JSON.stringify(sampleContract()), 'small.loop-contract.json');
      assert.equal(runner.checkedInWorker, 0);
      assert.deepEqual(result, { parsed: true, dimensions: 2, shown: [], hidden: 0 });
    } finally {
      runner.dispose();
    }
  });

  it('a worker that cannot start: the check runs inline and gives the same answer', async () => {
    const runner = new ContractCheckRunner(resolve(__dirname, 'no-such-worker.js'));
    try {
      const result = await runner.check(root, big, 'big.loop-contract.json');
      assert.equal(runner.checkedInWorker, 0);
      assert.deepEqual(result, computeContractCheck(root, big, 'big.loop-contract.json'));
    } finally {
      runner.dispose();
    }
  });

  it('text over the 1 MiB cap and text that is not JSON give no located findings', async () => {
    const runner = new ContractCheckRunner(WORKER);
    try {
      const huge = await runner.check(root, contractOf(1100 * 1024), 'huge.loop-contract.json');
      assert.equal(huge.parsed, false);
      assert.match(huge.tooLarge ?? '', /over the 1048576-byte limit/);
      const broken = await runner.check(
        root,
        `{"purpose": ${'1'.repeat(40_000)}`,
        'broken.loop-contract.json',
      );
      assert.deepEqual(broken, { parsed: false, dimensions: null, shown: [], hidden: 0 });
    } finally {
      runner.dispose();
    }
  });
});
