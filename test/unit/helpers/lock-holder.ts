// Starts hold-lock.js and resolves once the child holds the lock.
import { spawn, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';

/** Tests are bundled one per file, so `__dirname` is the test's own folder under out/test. */
const OUT_TEST = __dirname.slice(0, __dirname.lastIndexOf('/out/test') + '/out/test'.length);
export const HOLD_LOCK_SCRIPT = join(OUT_TEST, 'unit', 'helpers', 'hold-lock.js');

export interface HeldLock {
  readonly child: ChildProcess;
  /** Resolves with the exit code once the holder released the lock and exited. */
  readonly exited: Promise<number | null>;
}

export function holdLock(ledgerFile: string, ms: number, script = HOLD_LOCK_SCRIPT): Promise<HeldLock> {
  const env = { ...process.env };
  delete env.NODE_OPTIONS;
  delete env.NODE_EXTRA_CA_CERTS;
  const child = spawn(process.execPath, [script, ledgerFile, String(ms)], {
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  return new Promise((resolve, reject) => {
    let out = '';
    let err = '';
    child.stderr!.on('data', (d) => (err += d));
    child.stdout!.on('data', (d) => {
      out += d;
      if (out.includes('locked\n')) resolve({ child, exited });
    });
    child.on('exit', (code) => reject(new Error(`hold-lock exited (${code}) before locking: ${err}`)));
  });
}
