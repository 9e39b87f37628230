// The product's time stamps, every form in one place, all from `Date.prototype.toISOString` (UTC,
// proleptic Gregorian). A hand-written version of the arithmetic saved nothing measurable in the
// commands that stamp (bench/pieces.mjs's header says how that was measured), so the library
// call it is.

/** `new Date(ms).toISOString()`, e.g. `2026-12-01T18:41:40.123Z`: records and locks. */
export function isoUtc(ms: number): string {
  return new Date(ms).toISOString();
}

/** `isoUtc` to the second, e.g. `2026-12-01T18:41:40Z`: the work-order files' form (`date -u +%FT%TZ`). */
export function isoUtcSeconds(ms: number): string {
  return isoUtc(ms).replace(/\.[0-9]{3}Z$/, 'Z');
}

/**
 * `isoUtc` in the basic (separator-free) form to the second, e.g. `20261201T184140Z`: run ids and
 * kept-copy suffixes, where the time is part of a file name.
 */
export function basicUtc(ms: number): string {
  return isoUtcSeconds(ms).replace(/[-:]/g, '');
}

/** `basicUtc` with the milliseconds, e.g. `20261201T184140123Z`: names that may recur within a second. */
export function basicUtcMillis(ms: number): string {
  return isoUtc(ms).replace(/[-:.]/g, '');
}
