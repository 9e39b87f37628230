// A digest of the iteration records' text, kept in the ledger's header, so a read can tell that
// the records are byte for byte the ones this store last wrote. Those records were checked
// (shape, numbering, no repeated key) before they were written, so a read that finds the digest
// matching skips checking them again — on a 10,000-record ledger that check costs as much as
// parsing the file. Any other file (a hand edit, the original engine's rewrite, a digest that
// does not match, a layout the scan cannot prove) takes the full check, unchanged.
//
// The digest detects changes, it does not authenticate: someone who edits a record AND
// recomputes the digest gets the record past the shape check (the engine may then stop with an
// internal error, exit 11; nothing is written). Duplicate keys and the rest of the file are
// still checked on every read.
import { sha256 } from '../engine/sha';
import { locateRecords, type RecordsSpan } from './json-scan';

/** The header key holding the digest (top-level keys are sorted, so it sits after `iterations`). */
export const RECORDS_DIGEST_KEY = 'records_sha256';

/**
 * Records text shorter than this gets no digest: checking it is cheap, and hashing it would load
 * node:crypto into a command that otherwise never needs it.
 */
export const DIGEST_MIN_CHARS = 256 * 1024;

/** SHA-256 (hex) of the records' text: exactly the characters between the list's brackets. */
export function recordsDigest(recordsText: string): string {
  return sha256().update(recordsText, 'utf8').digest('hex');
}

/**
 * The records' span when the header's digest matches their text exactly, else null (no digest,
 * a layout the scan cannot prove, or any change to any record).
 */
export function provenRecords(text: string, parsed: Record<string, unknown>): RecordsSpan | null {
  const claimed = parsed[RECORDS_DIGEST_KEY];
  if (typeof claimed !== 'string') return null;
  const span = locateRecords(text, parsed);
  if (span === null || span.end - span.start < DIGEST_MIN_CHARS) return null;
  return recordsDigest(text.slice(span.start, span.end)) === claimed ? span : null;
}
