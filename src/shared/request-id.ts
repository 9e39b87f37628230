// The id a webview gives each request it posts (the critic-brief panel's and the overview pages'):
// the host answers with it, and echoes it in a refusal, so one rule says what an id may be. A
// message refused before it parses echoes its id only when the id keeps this rule.
import { z } from 'zod';

const REQUEST_ID = /^[A-Za-z0-9_-]{1,64}$/;

export const requestIdSchema = z.string().regex(REQUEST_ID, 'must be 1–64 letters, digits, _ or -');

/** The id of a message that did not parse, when it has one by the rule; else undefined. */
export function requestIdOf(raw: unknown): string | undefined {
  if (typeof raw !== 'object' || raw === null) return undefined;
  const id = (raw as { requestId?: unknown }).requestId;
  return typeof id === 'string' && REQUEST_ID.test(id) ? id : undefined;
}
