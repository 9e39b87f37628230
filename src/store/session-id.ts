// A session id names a ledger file, so it is checked before it ever reaches a path: only
// letters, digits, '.', '_' and '-', starting with a letter or digit, at most 128 characters.
// That rules out '..', separators, NUL, newlines and hidden (dot-prefixed) names by construction.
// Windows device names (CON, NUL, COM1…) are refused too: on Windows `con.json` opens the
// console, not a file, so a ledger folder holding one would not survive a clone there.

const SESSION_ID = /^[A-Za-z0-9][A-Za-z0-9._-]{0,127}$/;

/**
 * A name Windows reserves for a device whatever its case and extension: `CON`, `con.json` and
 * `Com1.x` all open the device. The stem is the id up to its first '.', as Windows reads it.
 * COM0 and LPT0 are listed as reserved by Microsoft's naming rules, so they are refused too.
 */
const WINDOWS_DEVICE = /^(?:con|prn|aux|nul|com[0-9]|lpt[0-9])(?:\.|$)/i;

/** How much of a refused id a message quotes: enough to recognise it, not a wall of text. */
const QUOTE_LIMIT = 64;

/** The id as a JSON string (control characters visible), shortened when it is huge. */
export function quoteSessionId(id: string): string {
  if (id.length <= QUOTE_LIMIT) return JSON.stringify(id);
  return `${JSON.stringify(id.slice(0, QUOTE_LIMIT))}… (${id.length} characters)`;
}

/** Null when `id` is a usable session id, else a one-line message naming it. */
export function sessionIdProblem(id: string): string | null {
  // `$` in a JS regex without the `m` flag only matches at the very end, so a trailing
  // newline is refused too (unlike Python's `$`).
  if (SESSION_ID.test(id)) {
    if (!WINDOWS_DEVICE.test(id)) return null;
    const stem = id.split('.')[0] as string;
    return `session id ${quoteSessionId(id)} is not valid: ${JSON.stringify(stem)} is a Windows device name (a ledger named after it could not exist on Windows)`;
  }
  const why =
    id.length === 0
      ? 'it is empty'
      : id.length > 128
        ? `it is ${id.length} characters long (at most 128)`
        : 'use letters, digits, ".", "_" and "-", starting with a letter or digit';
  return `session id ${quoteSessionId(id)} is not valid: ${why}`;
}

/** True for an id of the right characters that names a Windows device (listed, never opened). */
export function isWindowsDeviceId(id: string): boolean {
  return SESSION_ID.test(id) && WINDOWS_DEVICE.test(id);
}

/** Thrown when a path is asked for an id that `sessionIdProblem` refuses. */
export class InvalidSessionIdError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'InvalidSessionIdError';
  }
}
