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
import { compactRecordInto, iterationsOpen } from './compact-records';
import { keysProof } from './json-keys';
import { KEYS_PROOF_FROM_BYTES, mayRepeatKeys } from './json-scan';
import { RECORD_SEPARATOR } from './ledger-layout';
import { ledgerShapeProblem, recordPasses } from './ledger-shape';
import { SCHEMA_VERSION } from './ledger-verdict';
import { LEDGER_SIZE_LIMIT } from './limits';
import type { EarlyRead, ReadSteps } from './read-steps';
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
const COMPACT_SEPARATOR = Buffer.from(RECORD_SEPARATOR, 'latin1');

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
  const open = iterationsOpen(bytes);
  if (open < 0 || !startsAt(bytes, open, LIST_FIRST)) return null;
  const steps = slicedSteps(bytes, bytes.length, true, open, session, keep);
  const done = steps.next();
  if (!done.done) throw new Error('internal: a read of whole bytes asked for more');
  return done.value;
}

/** The file's bytes read in steps of this many (one buffer, reused while a record fits in it). */
export const SLICED_CHUNK_BYTES = 256 * 1024;

/**
 * Files shorter than this are read whole, then record by record from the whole bytes. It is the
 * smallest file this reader takes: every other is read in steps. A fresh page of memory costs
 * ~12 µs here (touching 4 MiB of a new buffer: 12 ms), so the steps' reused buffer beats a buffer
 * as long as the file from 1 MB on (bench/compare-builds.mjs at `status @1,000, first touch`:
 * 0.95× the wall time, 0.89× the process's own CPU, 16 rounds; an earlier build measured the
 * steps 5 % dearer at 1 MB).
 */
const STEPS_FROM_BYTES = DIGEST_MIN_BYTES;

/**
 * For `status` and `iterate` (read-steps.ts's EarlyRead, over the buffer the whole read would fill): the file
 * read from its start in steps of `chunk` bytes, into the buffer's first `chunk` bytes again and
 * again, and, when it is another writer's long ledger, read record by record from those steps —
 * the rest of the buffer is never written, so its pages are never touched (on this machine fresh
 * pages cost more than the read). Else the bytes read so far, for the whole read to go on from.
 * `keep`: for `iterate`, the records laid out for the rewrite as they are read (slicedFromBytes).
 */
export function slicedEarly(
  session: string,
  chunk = SLICED_CHUNK_BYTES,
  from = STEPS_FROM_BYTES,
  keep = false,
): EarlyRead<SlicedLedger | null> {
  return function* (whole) {
    const size = whole.length - 1; // the size stat gave (the buffer has a byte to spare)
    if (isPlain('sliced') || size < Math.max(from, DIGEST_MIN_BYTES) || size > LEDGER_SIZE_LIMIT)
      return { filled: 0 };
    const first = whole.subarray(0, Math.min(chunk, whole.length));
    const filled = yield* readOn(first, 0);
    const head = first.subarray(0, filled);
    // The records' opening is looked for first, natively: this store's own layout writes each
    // record on one line, so its files seldom hold it, and walking a header key by key costs more.
    if (head[0] !== 0x7b || head.indexOf(LIST_FIRST) < 0) return { filled };
    const open = iterationsOpen(head);
    if (open < 0 || !startsAt(head, open, LIST_FIRST)) return { filled };
    return {
      early: yield* slicedSteps(first, filled, filled < first.length, open, session, keep, size, whole),
    };
  };
}

/** Reads on from the file's position into `buffer` from `offset` until it is full or the file ends. */
function* readOn(buffer: Buffer, offset: number): ReadSteps<number> {
  let at = offset;
  while (at < buffer.length) {
    const read = (yield { kind: 'read', buffer, offset: at, length: buffer.length - at }) as number;
    if (read === 0) break;
    at += read;
  }
  return at - offset;
}

/**
 * The read itself, over `buffer`'s first `filled` bytes (the file's first bytes) and, unless
 * `ended`, what the file holds after them (read on into the same buffer, or a bigger one when a
 * record does not fit). `open`: where those first bytes open the records' list (`[`, followed
 * by LIST_FIRST's first record), found by the caller — walking the header's top-level keys is
 * the dearest step before the records on a long ledger (its `completed_actions` come first), so
 * it is walked once. `size`: what the file's stat said (the key proof's choice is made on it,
 * and a file that turns out another size is not proved).
 */
function* slicedSteps(
  first: Buffer,
  filled: number,
  ended: boolean,
  open: number,
  session: string,
  keep: boolean,
  size = filled,
  room = first,
): ReadSteps<SlicedLedger | null> {
  let buffer = first;
  let view = buffer.subarray(0, filled);
  let total = filled; // bytes of the file read so far
  // The WebAssembly proof covers the whole file, fed as it is read; below its threshold each
  // piece's keys are counted as it is parsed.
  const countKeys = size < KEYS_PROOF_FROM_BYTES;
  const proof = countKeys ? null : keysProof();
  if (proof === null && !countKeys) return null;
  /** Every byte read is checked as it arrives: ASCII, and fed to the key proof. */
  const arrived = (piece: Buffer): boolean => isAscii(piece) && (proof === null || proof.add(piece));
  if (!arrived(view)) return null;
  /**
   * Keeps the bytes from `from` on (moved to the buffer's start; a buffer twice as long when
   * they fill it, within `room` while it has it) and reads more after them; the distance they
   * moved, or -1 when the file had ended. Bytes that fail their check throw: not proved.
   */
  function* more(from: number): ReadSteps<number> {
    if (ended) return -1;
    const kept = view.length - from;
    if (kept === buffer.length) {
      const length = buffer.length * 2;
      const bigger = room.length >= length ? room.subarray(0, length) : Buffer.allocUnsafe(length);
      view.copy(bigger, 0, from); // copies as memmove does: `bigger` may begin where `view` does
      buffer = bigger;
    } else buffer.copyWithin(0, from, view.length);
    const got = yield* readOn(buffer, kept);
    if (got < buffer.length - kept) ended = true;
    total += got;
    view = buffer.subarray(0, kept + got);
    if (total > LEDGER_SIZE_LIMIT || !arrived(view.subarray(kept))) throw new Error('not proved');
    return from;
  }
  const headBefore = view.toString('latin1', 0, open + 1);
  const summary = emptySummary();
  // As the full read's rewrite lays them out: each record copied as it is proved
  // (compact-records.ts), into a buffer as long as the file: the records never come out longer,
  // and the pages they do not fill are never touched.
  const out = keep ? Buffer.allocUnsafe(size) : null;
  let outLength = 0;
  let at = open + LIST_FIRST.length - 2; // the first record's `{`
  let end: number;
  try {
    for (let index = 0; ; index += 1) {
      let close = view.indexOf(RECORD_CLOSE, at);
      // The record, and enough after it to tell what follows, must be in the buffer.
      while (close < 0 || (!ended && view.length - close < RECORD_CLOSE.length + RECORD_NEXT.length)) {
        const moved = yield* more(at);
        if (moved < 0) return null; // the file ended inside a record
        at -= moved;
        close = view.indexOf(RECORD_CLOSE, at);
      }
      const stop = close + RECORD_CLOSE.length;
      const text = view.toString('latin1', at, stop);
      const record: unknown = JSON.parse(text);
      if (!recordPasses(record, index)) return null;
      if (countKeys && mayRepeatKeys(text, record as object)) return null;
      addRecord(summary, record as IterationRecord);
      if (out !== null) {
        if (index > 0) outLength += COMPACT_SEPARATOR.copy(out, outLength);
        outLength = compactRecordInto(view, at, stop, out, outLength);
      }
      if (startsAt(view, stop, RECORD_NEXT)) at = stop + RECORD_NEXT.length - 2;
      else if (startsAt(view, stop, LIST_CLOSE)) {
        end = stop;
        break;
      } else return null;
    }
    let headAfter = view.toString('latin1', end);
    while ((yield* more(view.length)) >= 0) headAfter += view.toString('latin1');
    if (total !== size) return null; // the file changed while it was read
    const headText = headBefore + headAfter;
    const header: unknown = JSON.parse(headText);
    if (!isPlainObject(header) || !headerPasses(header, session)) return null;
    if (countKeys ? mayRepeatKeys(headText, header) : proof?.proved() !== true) return null;
    const ledger = header as unknown as Ledger;
    if (!keep) return { ledger, summary };
    const records = (out as Buffer).subarray(0, outLength);
    // A rewrite seals records of DIGEST_MIN_BYTES or more; shorter ones take the full path.
    if (records.length < DIGEST_MIN_BYTES) return null;
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
