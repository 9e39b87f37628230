// The seal of a long ledger's records: a digest in the header (`records_sha256`) over the
// records' bytes followed by a summary of them (`records_summary`, the engine's fold in
// records-summary.ts). A read that finds the seal matching knows the records are byte for byte
// the ones this store last wrote, with that summary:
// - the full read (ledger-file.ts) skips re-checking the records' shape (they were checked
//   before they were written): on a 10,000-record ledger that check costs as much as parsing;
// - `status` and `iterate` (ledger-sealed.ts) parse only the header, answer from the summary, and
//   carry the records into the next write as bytes.
// Any other file (a hand edit, the original engine's rewrite, a seal that does not match, a
// layout the scan cannot prove) takes the full check, unchanged. Because the summary is under
// the digest, editing it alone breaks the seal just as editing a record does.
//
// The digest detects changes, it does not authenticate: someone who edits a record AND
// recomputes the digest gets the record past the shape check (the engine may then stop with an
// internal error, exit 11; nothing is written). Duplicate keys and the rest of the file are
// still checked on every read, and records are only ever carried as the bytes they are.
import type { Hash } from 'node:crypto';
import { nativeSha256 } from '../engine/sha';
import { locateRecords, type RecordsSpan } from './json-scan';

/** The header key holding the digest (top-level keys are sorted, so it sits after `iterations`). */
export const RECORDS_DIGEST_KEY = 'records_sha256';
/** The header key holding the records' summary, written on one line. */
export const RECORDS_SUMMARY_KEY = 'records_summary';

/**
 * Records shorter than this many UTF-8 bytes get no seal: checking them is cheap, and hashing
 * them would load node:crypto into a command that otherwise never needs it.
 */
export const DIGEST_MIN_BYTES = 256 * 1024;

/** A SHA-256 with the records' bytes already fed in (node:crypto is loaded on first use). */
export function hashOfRecords(records: readonly Uint8Array[]): Hash {
  const hash = nativeSha256();
  for (const part of records) hash.update(part);
  return hash;
}

/** The digest, given the hash of the records' bytes and the summary's text. Consumes `hash`. */
export function finishDigest(recordsHash: Hash, summaryText: string): string {
  return recordsHash.update(`\n${summaryText}`, 'utf8').digest('hex');
}

/** The digest of records (their bytes, between the list's brackets) sealed with `summaryText`. */
export function recordsDigest(records: readonly Uint8Array[], summaryText: string): string {
  return finishDigest(hashOfRecords(records), summaryText);
}

/**
 * The records' span when the header's seal matches their text exactly, else null (no seal, a
 * layout the scan cannot prove, or any change to any record or to the summary). `bytes`, when
 * given, is the file `text` was decoded from (after any BOM): the records are hashed straight
 * from it rather than encoded again.
 */
export function provenRecords(
  text: string,
  parsed: Record<string, unknown>,
  bytes?: Buffer,
): RecordsSpan | null {
  const claimed = parsed[RECORDS_DIGEST_KEY];
  const summary = parsed[RECORDS_SUMMARY_KEY];
  if (typeof claimed !== 'string' || summary === undefined) return null;
  const span = locateRecords(text, parsed);
  if (span === null) return null;
  let records: Uint8Array;
  if (bytes !== undefined) {
    const start = Buffer.byteLength(text.slice(0, span.start), 'utf8');
    const end = bytes.length - Buffer.byteLength(text.slice(span.end), 'utf8');
    records = bytes.subarray(start, end);
  } else {
    records = Buffer.from(text.slice(span.start, span.end), 'utf8');
  }
  if (records.length < DIGEST_MIN_BYTES) return null;
  return recordsDigest([records], JSON.stringify(summary)) === claimed ? span : null;
}
