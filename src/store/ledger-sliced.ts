// The first read of a long ledger another writer laid out — the original engine's
// `json.dumps(indent=2, sort_keys=True)`, before this store has ever sealed it — for `status` and
// `iterate`, the two commands that read old records only through their summary
// (engine/records-summary.ts). The records are parsed one at a time, each checked and folded
// into the summary and then let go; the rest of the file is parsed as a header whose
// `iterations` list is empty. The whole file is never one string and its records are never
// all alive at once.
//
// Why: on a 10,000-record ledger the full read decodes 10 MB into a second copy, parses it into
// one tree the garbage collector copies again and again while it grows, then walks that tree
// twice; on this machine every fresh page of memory is dear. Records parsed one by one die
// young, in memory the collector reuses.
//
// Nothing is believed without proof, and anything not proved returns null: the caller then
// takes the full read of the same bytes (ledger-verdict.ts), which says what is wrong, word for
// word as always, or reads what is right. Proved here, for the file to count as read:
// - the bytes are ASCII (the original engine escapes everything else), with no byte-order mark;
// - the top-level `iterations` list (found by reading the top-level keys, not by a search) holds
//   records each written from a line `    {` to a line `    }`, separated by `,` and a line
//   break and closed by a line `  ]`; each record's text is accepted by JSON.parse, and so is the
//   file with the list emptied — together, the file is one JSON value, that value;
// - no object repeats a key (the WebAssembly proof over the bytes, or a count per piece);
// - the header passes the ledger's shape check and names the file's session, carries no seal
//   and no other schema version; each record passes the record shape check, numbered in order.
import { isAscii } from 'node:buffer';
import { isPlain } from '../engine/plain-pieces';
import { addRecord, emptySummary, type RecordsSummary } from '../engine/records-summary';
import type { IterationRecord, Ledger } from '../engine/types';
import { compactRecords, iterationsOpen } from './compact-records';
import { keysProvedUnique } from './json-keys';
import { KEYS_PROOF_FROM_BYTES, mayRepeatKeys } from './json-scan';
import { COPY_FROM_BYTES, RECORD_SEPARATOR } from './ledger-layout';
import { ledgerShapeProblem, recordPasses } from './ledger-shape';
import { SCHEMA_VERSION } from './ledger-verdict';
import { DIGEST_MIN_BYTES, RECORDS_DIGEST_KEY, RECORDS_SUMMARY_KEY } from './records-digest';

/** A ledger read record by record: its header (with `iterations` empty) and its records' summary. */
export interface SlicedLedger {
  /** Every key of the file; `iterations` is EMPTY: the records were folded, not kept. */
  ledger: Ledger;
  summary: RecordsSummary;
  /**
   * With `keep`: the records as this store lays them out (one per line, joined by
   * RECORD_SEPARATOR, no brackets), byte for byte what the full read's rewrite writes for them.
   */
  records?: Buffer;
}

const LIST_FIRST = Buffer.from('[\n    {\n', 'latin1');
const RECORD_CLOSE = Buffer.from('\n    }', 'latin1');
const RECORD_NEXT = Buffer.from(',\n    {\n', 'latin1');
const LIST_CLOSE = Buffer.from('\n  ]', 'latin1');

function startsAt(bytes: Buffer, at: number, marker: Buffer): boolean {
  return (
    bytes.length - at >= marker.length &&
    bytes.compare(marker, 0, marker.length, at, at + marker.length) === 0
  );
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * The ledger in `bytes` (a whole file of at least DIGEST_MIN_BYTES) read record by record, or
 * null when this reader cannot prove it (then the full read decides). `keep`: also lay the
 * records out for a rewrite (`iterate`); null then too when they are too short to be sealed.
 */
export function slicedFromBytes(bytes: Buffer, session: string, keep: boolean): SlicedLedger | null {
  if (isPlain('sliced') || bytes.length < DIGEST_MIN_BYTES || bytes[0] !== 0x7b) return null;
  if (!isAscii(bytes)) return null;
  const open = iterationsOpen(bytes);
  if (open < 0 || !startsAt(bytes, open, LIST_FIRST)) return null;
  const summary = emptySummary();
  // The WebAssembly proof covers the whole file at once; below its threshold each piece's keys
  // are counted as it is parsed.
  const countKeys = bytes.length < KEYS_PROOF_FROM_BYTES;
  // As the full read's rewrite lays them out: serialised below COPY_FROM_BYTES, else copied.
  const texts: string[] | null = keep && bytes.length < COPY_FROM_BYTES ? [] : null;
  let at = open + LIST_FIRST.length - 2; // the first record's `{`
  let end: number;
  try {
    for (let index = 0; ; index += 1) {
      const close = bytes.indexOf(RECORD_CLOSE, at);
      if (close < 0) return null;
      const stop = close + RECORD_CLOSE.length;
      const text = bytes.toString('latin1', at, stop);
      const record: unknown = JSON.parse(text);
      if (!recordPasses(record, index)) return null;
      if (countKeys && mayRepeatKeys(text, record as object)) return null;
      addRecord(summary, record as IterationRecord);
      texts?.push(JSON.stringify(record));
      if (startsAt(bytes, stop, RECORD_NEXT)) at = stop + RECORD_NEXT.length - 2;
      else if (startsAt(bytes, stop, LIST_CLOSE)) {
        end = stop;
        break;
      } else return null;
    }
    const headText = bytes.toString('latin1', 0, open + 1) + bytes.toString('latin1', end);
    const header: unknown = JSON.parse(headText);
    if (!isPlainObject(header) || !headerPasses(header, session)) return null;
    if (countKeys ? mayRepeatKeys(headText, header) : !keysProvedUnique(bytes)) return null;
    const ledger = header as unknown as Ledger;
    if (!keep) return { ledger, summary };
    const records =
      texts === null
        ? compactRecords(bytes, summary.count)
        : Buffer.from(texts.join(RECORD_SEPARATOR), 'utf8');
    // A rewrite seals records of DIGEST_MIN_BYTES or more; shorter ones take the full path.
    if (records === null || records.length < DIGEST_MIN_BYTES) return null;
    return { ledger, summary, records };
  } catch {
    return null; // not JSON, nested too deeply…: the full read says what
  }
}

/** The header is a ledger's, of no other schema version, unsealed, naming the file's session. */
function headerPasses(header: Record<string, unknown>, session: string): boolean {
  if (Object.hasOwn(header, 'schema_version') && header.schema_version !== SCHEMA_VERSION) return false;
  if (Object.hasOwn(header, RECORDS_DIGEST_KEY) || Object.hasOwn(header, RECORDS_SUMMARY_KEY)) return false;
  return ledgerShapeProblem(header, session, true) === null;
}
