// Mocha's spec reporter plus one closing line `TIER <name>: N passed, M failed`, which
// scripts/test-all.mjs reads to add every tier into the one total the README promises.
const Mocha = require('mocha');

class TierReporter extends Mocha.reporters.Spec {
  constructor(runner, options) {
    super(runner, options);
    const tier =
      (options && options.reporterOptions && options.reporterOptions.tier) || process.env.TEST_TIER || 'unit';
    runner.once('end', () => {
      const { passes = 0, failures = 0 } = runner.stats || {};
      console.log(`TIER ${tier}: ${passes} passed, ${failures} failed`);
    });
  }
}
module.exports = TierReporter;
