// Turns what the checkpoint driver throws into the operation's refusal: a state git or the
// workspace is in (exit 3), never a stack trace.
import { EXIT } from '../../engine/refusal';
import { GitFailed } from '../../drivers/checkpoints/git';
import { CheckpointRefused } from '../../drivers/checkpoints/workspace';
import { Refused } from '../outcome';

export function checkpointStep<T>(what: string, fn: () => T): T {
  try {
    return fn();
  } catch (error) {
    if (error instanceof CheckpointRefused || error instanceof GitFailed) {
      throw new Refused(EXIT.wrongState, [{ message: `${what}: ${error.message}`, code: 'checkpoint' }]);
    }
    throw error;
  }
}
