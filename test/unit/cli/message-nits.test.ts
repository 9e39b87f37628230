// One-line refusals that say what was wrong, through the real CLI: a TOML `inf`/`nan` timeout
// is named as written (not "null"), and a `--spent` count past 2^53 − 1 is refused, exit 2,
// instead of being rounded into the ledger.
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { readLedger, runCli, tempRoot, writeText } from '../helpers/cli';
import { contractText } from '../engineering/helpers';
import { AGENTS, ALLOW, readText, runLoop, sampleRepo } from '../run/helpers';

describe('CLI: refusals name the value they refuse', function () {
  this.timeout(60_000);

  describe('run --agent-config: a timeout TOML spells inf or nan', () => {
    for (const [written, shown] of [
      ['inf', 'inf'],
      ['+inf', 'inf'],
      ['-inf', '-inf'],
      ['nan', 'nan'],
    ]) {
      it(`timeout_seconds = ${written} → "got ${shown}", exit 2`, () => {
        const repo = sampleRepo();
        const config = join(tempRoot('cfg-'), 'agents.toml');
        writeFileSync(
          config,
          readText(AGENTS).replace(/(\[coder\][\s\S]*?timeout_seconds = )20/, `$1${written}`),
        );
        const r = runLoop(repo, ['--objective', 'x', '--agent-config', config, ...ALLOW]);
        assert.equal(r.code, 2, r.stderr);
        assert.match(
          r.stderr,
          new RegExp(`\\[coder\\]\\.timeout_seconds: must be a finite number of seconds, got ${shown}\\n`),
        );
        assert.doesNotMatch(r.stderr, /null/);
        assert.equal(r.stderr.trim().split('\n').length, 1, r.stderr);
      });
    }
  });

  describe('iterate --spent: counts past 2^53 − 1 are refused, not rounded', () => {
    function loop() {
      const root = tempRoot('loop-spent-');
      const path = writeText(join(root, '.loop', 'contracts', 'c.loop.md'), contractText());
      const cli = (...args: string[]) => runCli([...args, '--root', root]);
      assert.equal(cli('open', '--session', 's', '--engineering', path).code, 0);
      const iterate = (...spent: string[]) =>
        cli('iterate', '--session', 's', '--outcome', 'continue', ...spent.flatMap((s) => ['--spent', s]));
      return { root, iterate };
    }

    for (const spec of [
      'calls=9007199254740992',
      'tokens=9007199254740993',
      'ms=99999999999999999999',
      'usd=9007199254740993.5',
    ]) {
      it(`--spent ${spec}: exit 2, the flag named, nothing written`, () => {
        const { root, iterate } = loop();
        const r = iterate(spec);
        assert.equal(r.code, 2, r.stderr);
        assert.match(
          r.stderr,
          new RegExp(`--spent ${spec.replace('.', '\\.')}: \\w+ must be at most 9007199254740991`),
        );
        assert.equal(readLedger(root, 's').iterations.length, 0);
      });
    }

    it('2^53 − 1 itself is kept exactly; a total that would pass it is refused, exit 2', () => {
      const { root, iterate } = loop();
      assert.equal(iterate('tokens=9007199254740991').code, 0);
      assert.equal(readLedger(root, 's').engineering.spent.tokens, 9007199254740991);
      const r = iterate('tokens=1');
      assert.equal(r.code, 2, r.stderr);
      assert.match(r.stderr, /--spent: the loop's tokens total would pass 9007199254740991/);
      const ledger = readLedger(root, 's');
      assert.equal(ledger.iterations.length, 1);
      assert.equal(ledger.engineering.spent.tokens, 9007199254740991);
    });

    it('two values that each fit but together pass it are refused too', () => {
      const { root, iterate } = loop();
      const r = iterate('calls=9007199254740991', 'calls=1');
      assert.equal(r.code, 2, r.stderr);
      assert.equal(readLedger(root, 's').iterations.length, 0);
    });
  });
});
