// The values `open` takes besides the contract. The rule lives here, once: the CLI's parser only
// turns text into a number, and the extension's input box asks this same function, so neither
// shell can store a threshold the other would refuse.
import { EXIT, refuse, type Refusal } from './refusal';
import type { Finding } from './types';

/** The finding's field: each shell names it in its own words (`--stall-threshold`, "Stall threshold"). */
export const STALL_THRESHOLD_FIELD = 'stall_threshold';

/**
 * Why `value` cannot be a stall threshold, or null. A threshold of 0 would escalate on the first
 * repeated error; a fraction or a number beyond 2^53 has no meaning as a count.
 */
export function stallThresholdProblem(value: number): Finding | null {
  if (Number.isSafeInteger(value) && value >= 1) return null;
  return {
    message: `expected a whole number of at least 1, got ${String(value)}`,
    path: [STALL_THRESHOLD_FIELD],
    code: 'bad-stall-threshold',
  };
}

/** A usage refusal (exit 2, as the original's parser gave) for settings `open` cannot store. */
export function openSettingsRefusal(settings: { stallThreshold: number }): Refusal | null {
  const problem = stallThresholdProblem(settings.stallThreshold);
  return problem ? refuse(EXIT.usage, [problem]) : null;
}
