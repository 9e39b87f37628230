// The only reasons a test may skip itself when CI is set (see mocha-tier-reporter.cjs). A test
// names one with test/skip.ts `skipBecause(this, 'reason')`; any other skip fails under CI, so
// a test can never quietly drop out of the total.
module.exports = {
  'needs-windows': 'exercises Windows-only behaviour (PATHEXT, drive letters)',
  'needs-posix': 'exercises POSIX-only behaviour (signals, file modes)',
};
