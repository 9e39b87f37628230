// Mocha's spec reporter plus one closing line `TIER <name>: N passed, M failed, K skipped`, which
// scripts/test-all.mjs reads to add every tier into the one total the README promises.
// With CI set, a skipped test counts as failed unless it named an allowed reason
// (scripts/allowed-skips.cjs) through test/skip.ts: a skip must never look like a pass.
const Mocha = require('mocha');
const allowedSkips = require('./allowed-skips.cjs');

/** The reason a pending test (or a suite above it, when a hook skipped) named, if any. */
function skipReason(test) {
  for (let node = test; node; node = node.parent) {
    if (typeof node.skipReason === 'string') return node.skipReason;
  }
  return undefined;
}

class TierReporter extends Mocha.reporters.Spec {
  constructor(runner, options) {
    super(runner, options);
    const tier =
      (options && options.reporterOptions && options.reporterOptions.tier) || process.env.TEST_TIER || 'unit';
    const strict = Boolean(process.env.CI);
    const refusedSkips = [];
    let skipped = 0;
    runner.on('pending', (test) => {
      const reason = skipReason(test);
      if (strict && !(reason && Object.hasOwn(allowedSkips, reason))) {
        refusedSkips.push(
          `${test.fullTitle()} (${reason ? `reason "${reason}" is not allowed` : 'no reason named'})`,
        );
      } else {
        skipped++;
      }
    });
    runner.once('end', () => {
      const { passes = 0, failures = 0 } = runner.stats || {};
      for (const line of refusedSkips) console.log(`  ✖ skipped under CI: ${line}`);
      const failed = failures + refusedSkips.length;
      // Registered before mocha's own end listener, so its exit code (and the callback of
      // Mocha#run in the extension host) counts a refused skip as a failure too.
      runner.failures += refusedSkips.length;
      console.log(`TIER ${tier}: ${passes} passed, ${failed} failed, ${skipped} skipped`);
    });
  }
}
module.exports = TierReporter;
