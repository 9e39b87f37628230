// The one way a test skips itself: naming a reason from scripts/allowed-skips.cjs. Under CI the
// tier reporter fails any skip without an allowed reason, so `this.skip()` alone never hides a test.
import type { Context } from 'mocha';
// eslint-disable-next-line @typescript-eslint/no-require-imports
const allowed: Record<string, string> = require('../scripts/allowed-skips.cjs');

export type SkipReason = 'needs-windows' | 'needs-posix';

export function skipBecause(context: Context, reason: SkipReason): never {
  if (!Object.hasOwn(allowed, reason)) throw new Error(`unknown skip reason: ${reason}`);
  // In a hook the skip covers the whole suite, so the suite carries the reason.
  const runnable = context.test as (Mocha.Runnable & { skipReason?: string; type?: string }) | undefined;
  if (runnable) {
    runnable.skipReason = reason;
    const parent = runnable.parent as (Mocha.Suite & { skipReason?: string }) | undefined;
    if (runnable.type === 'hook' && parent) parent.skipReason = reason;
  }
  return context.skip();
}
