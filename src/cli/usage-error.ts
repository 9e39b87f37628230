// A usage error (argparse's exit 2): unknown flag, missing required flag, bad choice.
const BRAND = Symbol.for('loop-ledger.UsageError');

export class UsageError extends Error {
  readonly [BRAND] = true;

  constructor(message: string) {
    super(message);
    this.name = 'UsageError';
  }

  /**
   * `run` and `repeat` load from bundles of their own (dist/cli-run.js, dist/cli-repeat.js), each
   * with its own copy of this class; main.ts must still know their usage errors (exit 2), so
   * `instanceof` answers by a brand every copy shares.
   */
  static override [Symbol.hasInstance](value: unknown): boolean {
    return typeof value === 'object' && value !== null && (value as { [BRAND]?: unknown })[BRAND] === true;
  }
}
