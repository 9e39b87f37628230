// The longest timeout a driver can honour. Node's timers take at most 2^31-1 ms (about 24.8
// days); a longer delay fires at once, so a timeout of "a year" would kill a child immediately.
// Every place a timeout is read refuses a larger one, naming the field.

export const MAX_TIMER_MS = 2 ** 31 - 1;
export const MAX_TIMEOUT_SECONDS = Math.floor(MAX_TIMER_MS / 1000);

/** The refusal for `field` set to `seconds`, or null when it is within the limit. */
export function timeoutTooLong(field: string, seconds: number): string | null {
  if (seconds <= MAX_TIMEOUT_SECONDS) return null;
  return `${field}: ${seconds} seconds is over the longest timeout, ${MAX_TIMEOUT_SECONDS} seconds (about 24.8 days)`;
}
