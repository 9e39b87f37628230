// A usage error (argparse's exit 2): unknown flag, missing required flag, bad choice.
export class UsageError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'UsageError';
  }
}
