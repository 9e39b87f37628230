// The run folder's own small files (request, ending, links, prompts), read back by the next run.
// They are read like a ledger — a regular file only, no symlink followed, no FIFO or device
// waited on, capped — because a cloned repository can carry a link in their place.
import { jsonFileSteps } from '../../store/read-steps';
import { runReadSync } from '../../store/read-sync';

/** The file's parsed JSON, or undefined when it cannot be read or is not JSON. */
export function readRunJson(path: string): unknown {
  return runReadSync(jsonFileSteps(path));
}
