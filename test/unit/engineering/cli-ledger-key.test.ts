// The `engineering` ledger key as read back: a malformed one is refused (exit 2, named), never
// trusted; concurrent `iterate --spent` calls never lose an addition.
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ledgerPath, readLedger, runCli, runCliAsync, tempRoot, writeText } from '../helpers/cli';
import { contractText } from './helpers';

describe('CLI: the engineering ledger key', () => {
  function opened(overrides: Record<string, string | null> = {}) {
    const root = tempRoot('loop-eng-key-');
    const path = writeText(join(root, '.loop', 'contracts', 'c.loop.md'), contractText(overrides));
    assert.equal(runCli(['open', '--root', root, '--session', 's', '--engineering', path]).code, 0);
    return root;
  }

  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  type Key = Record<string, any>;
  const corruptions: [string, (e: Key) => void, RegExp][] = [
    ['a cap that is text', (e) => (e.caps.calls = 'many'), /engineering\.caps\.calls is malformed/],
    ['a negative spent total', (e) => (e.spent.usd = -1), /engineering\.spent\.usd is malformed/],
    [
      'a NO_OP policy without its query',
      (e) => (e.no_op = { output_limit: 0 }),
      /engineering\.no_op is malformed/,
    ],
    ['no caps at all', (e) => delete e.caps, /engineering\.caps is malformed/],
  ];
  for (const [name, corrupt, message] of corruptions) {
    it(`iterate refuses ${name} (exit 2) and writes nothing`, () => {
      const root = opened();
      const ledger = readLedger(root, 's');
      corrupt(ledger.engineering);
      writeFileSync(ledgerPath(root, 's'), JSON.stringify(ledger, null, 2));
      const r = runCli(['iterate', '--root', root, '--session', 's', '--outcome', 'continue']);
      assert.equal(r.code, 2);
      assert.match(r.stderr, message);
      assert.equal(readLedger(root, 's').iterations.length, 0);
    });
  }

  it('a ledger key that is not an object is refused', () => {
    const root = opened();
    const ledger = readLedger(root, 's');
    ledger.engineering = [1];
    writeFileSync(ledgerPath(root, 's'), JSON.stringify(ledger));
    const r = runCli(['iterate', '--root', root, '--session', 's', '--outcome', 'continue']);
    assert.equal(r.code, 2);
    assert.match(r.stderr, /ledger key engineering is not an object/);
  });

  it('concurrent iterate --spent calls add up exactly: every recorded iteration counted once', async () => {
    const root = opened({ 'max iterations': '100 iterations', budget: '1000 tool calls' });
    const results = await Promise.all(
      Array.from({ length: 6 }, () =>
        runCliAsync([
          'iterate',
          '--root',
          root,
          '--session',
          's',
          '--outcome',
          'continue',
          '--spent',
          'calls=3',
        ]),
      ),
    );
    for (const r of results) assert.ok(r.code === 0 || r.code === 3, `exit ${r.code}: ${r.stderr}`);
    const recorded = results.filter((r) => r.code === 0).length;
    assert.ok(recorded >= 1);
    const ledger = readLedger(root, 's');
    assert.equal(ledger.iterations.length, recorded);
    assert.equal(ledger.engineering.spent.calls, 3 * recorded);
  });
});
