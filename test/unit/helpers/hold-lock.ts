// A child process that holds one ledger's lock for a while, as an agent's CLI would mid-write
// (bundled to out/test/unit/helpers/hold-lock.js; the integration tier spawns it too).
//   hold-lock <ledger-file> <ms>: takes the lock, prints "locked", holds it <ms>, releases, exits.
import { withLock } from '../../../src/store/lock';

const [file, ms] = process.argv.slice(2);
if (file === undefined || ms === undefined) throw new Error('usage: hold-lock LEDGER MS');
withLock(file, () => {
  process.stdout.write('locked\n');
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, Number(ms));
});
