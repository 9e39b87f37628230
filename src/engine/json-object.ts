// One test for "a plain JSON object" (not null, not an array), shared by every reader of parsed
// JSON: ledgers, receipts, repeat state, work-order sidecars.

/** A plain JSON object (not an array, not null). */
export function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
