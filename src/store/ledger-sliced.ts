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
// - the top-level `iterations` list (found by reading the top-level keys, not by a search) opens
//   with a line `    {` and holds records separated by one `,` each. With the WebAssembly pass
//   (json-keys.wat's `compact`) each record is where the bracket depth says; its text without
//   blanks outside strings is what is parsed, the pass having refused any dropped blank that
//   joined two words (`1 2`), so it is the same JSON. Without it, each record is written from a
//   line `    {` to a line `    }`, separated by `,` and a line break and closed by a line `  ]`.
//   Each record's text is accepted by JSON.parse, and so is the file with the list emptied —
//   together, the file is one JSON value, that value;
// - no object repeats a key (the WebAssembly proof over the bytes, or a count per piece);
// - the header passes the ledger's shape check and names the file's session, carries no seal
//   and no other schema version; each record passes the record shape check, numbered in order.
import { isAscii } from 'node:buffer';
import { isPlain } from '../engine/plain-pieces';
import { addRecord, emptySummary, type RecordsSummary } from '../engine/records-summary';
import type { IterationRecord, Ledger } from '../engine/types';
import { compactRecordInto, iterationsOpen } from './compact-records';
import { keysPass, type KeysPass } from './json-keys';
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
/** Room the pass may write past where its writing ends (it writes whole 16-byte blocks). */
const COMPACT_SLACK = 16;

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
  const keys = keysWay(bytes.length, keep);
  if (keys === null) return null;
  // The WebAssembly pass reads from its own memory: the bytes are copied into it a step at a
  // time, as a file is read, so only a step's pages of it are ever touched. The first step must
  // hold the records' opening; when it does not (a long header), it is the whole file.
  const step = open + LIST_FIRST.length <= SLICED_CHUNK_BYTES ? SLICED_CHUNK_BYTES : bytes.length;
  const first = keys === 'count' ? bytes : bytes.subarray(0, Math.min(step, bytes.length));
  const fill = keys === 'count' ? readOn : copyOn(bytes, first.length);
  const ended = first.length === bytes.length;
  const steps = slicedSteps(keys, first, first.length, ended, open, session, keep, bytes.length, first, fill);
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
 * How a file of `size` bytes is proved: by the WebAssembly pass (json-keys.wat's `compact`: the
 * bytes' check, the key proof and the records laid out without their blanks, in one pass), by
 * JavaScript ('count': an ASCII check, a key count per piece, for `keep` a copy loop), or not at
 * all (null: the full read decides). Measured (bench/compare-builds.mjs, child CPU): for
 * `iterate` (`keep`) the pass saves at every size, 8 % at 1,000 records (1 MB), 13 % at 10,000,
 * the copy loop it replaces paying for starting it; for `status` it costs 2 % more than the
 * count below KEYS_PROOF_FROM_BYTES (starting it costs what it saves there), and from there on
 * the pass, not the count, is what proves keys.
 */
function keysWay(size: number, keep: boolean): KeysPass | 'count' | null {
  const pass = keep || size >= KEYS_PROOF_FROM_BYTES ? keysPass() : null;
  if (pass !== null) return pass;
  return size < KEYS_PROOF_FROM_BYTES ? 'count' : null;
}

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
    const keys = keysWay(size, keep);
    if (keys === null) return { filled };
    const ended = filled < first.length;
    return {
      early: yield* slicedSteps(keys, first, filled, ended, open, session, keep, size, whole, readOn),
    };
  };
}

/** Fills `buffer` from `offset` with the file's next bytes, until it is full or they end: how many. */
type Fill = (buffer: Buffer, offset: number) => ReadSteps<number>;

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

/** A Fill that copies on from `bytes`' byte `from` (a file already read whole). */
function copyOn(bytes: Buffer, from: number): Fill {
  let position = from;
  // eslint-disable-next-line require-yield -- a Fill that never needs to ask for a read
  return function* (buffer, offset) {
    const copied = bytes.copy(buffer, offset, position);
    position += copied;
    return copied;
  };
}

/**
 * The read itself, from `first`'s first `filled` bytes (the file's first bytes) and, unless
 * `ended`, what `fill` brings after them (into the same buffer; without the pass, a bigger one
 * when a record does not fit: within `room` while it has it). `open`: where those first bytes
 * open the records' list (`[`, followed by LIST_FIRST's first record), found by the caller —
 * walking the header's top-level keys is the dearest step before the records on a long ledger
 * (its `completed_actions` come first), so it is walked once. `size`: what the file's stat said
 * (a file that turns out another size is not proved). `keys`: how its keys are proved (keysWay).
 */
function* slicedSteps(
  keys: KeysPass | 'count',
  first: Buffer,
  filled: number,
  ended: boolean,
  open: number,
  session: string,
  keep: boolean,
  size: number,
  room: Buffer,
  fill: Fill,
): ReadSteps<SlicedLedger | null> {
  const pass = keys === 'count' ? null : keys;
  // The WebAssembly pass reads and writes in its own memory (its room), laid out once: for
  // `keep`, the records laid out for the rewrite (never longer than the file); the buffer the
  // file is read into, a step at a time (a record may span steps: the pass carries its state
  // over); the table of where records end; without `keep`, the records not yet parsed. Only
  // that last part grows, at the room's end; growing detaches every view: they are taken again.
  const bufferAt = pass !== null && keep ? align(size + COMPACT_SLACK) : 0;
  const tableAt = align(bufferAt + first.length);
  const scratchAt = align(tableAt + 12 + 2 * first.length);
  let mem = pass !== null ? pass.room(scratchAt + (keep ? 0 : 2 * first.length)) : first;
  let buffer = pass !== null ? mem.subarray(bufferAt, bufferAt + first.length) : first;
  if (pass !== null) first.copy(buffer, 0, 0, filled);
  let view = buffer.subarray(0, filled);
  let total = filled; // bytes of the file read so far
  // Without the pass every byte read is checked as it arrives; the pass checks each part of the
  // file as it reads it (below).
  if (pass === null && !isAscii(view)) return null;
  /**
   * Keeps the bytes from `from` on (moved to the buffer's start; a buffer twice as long when
   * they fill it: only without the pass, which keeps none) and reads more after them; the
   * distance they moved, or -1 when the file had ended. Bytes that fail their check throw: not
   * proved.
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
    const got = yield* fill(buffer, kept);
    if (got < buffer.length - kept) ended = true;
    total += got;
    view = buffer.subarray(0, kept + got);
    if (total > LEDGER_SIZE_LIMIT || (pass === null && !isAscii(view.subarray(kept))))
      throw new Error('not proved');
    return from;
  }
  const headBefore = view.toString('latin1', 0, open + 1);
  const at = open + LIST_FIRST.length - 2; // the first record's `{`
  /**
   * The pass's check of the header's bytes from the buffer's `from` to the end of what it holds
   * (ASCII, and fed to the key proof). The pass reads the file's parts in order: the header up to
   * the first record, the records' list (compactAt), the header from the list's `]` on.
   */
  const bytesPass = (from: number, to = view.length): boolean =>
    pass === null || (isAscii(view.subarray(from, to)) && pass.scanAt(bufferAt + from, to - from));
  const summary = emptySummary();
  // As the full read's rewrite lays them out (`keep`): the pass writes them in its room; without
  // it each record is copied as it is proved (compact-records.ts) into `out`, as long as the
  // file (the records never come out longer, and the pages they do not fill are never touched).
  const out = keep && pass === null ? Buffer.allocUnsafe(size) : null;
  const records = { length: 0 }; // how long the records laid out are
  try {
    let end: number | null;
    if (pass !== null) {
      if (!bytesPass(0, at)) return null;
      pass.records();
      end = yield* passRecords(at);
    } else end = yield* countedRecords(at);
    if (end === null || !bytesPass(end)) return null;
    let headAfter = view.toString('latin1', end);
    while ((yield* more(view.length)) >= 0) {
      if (!bytesPass(0)) return null;
      headAfter += view.toString('latin1');
    }
    if (total !== size) return null; // the file changed while it was read
    const headText = headBefore + headAfter;
    const header: unknown = JSON.parse(headText);
    if (!isPlainObject(header) || !headerPasses(header, session)) return null;
    if (pass === null ? mayRepeatKeys(headText, header) : !pass.proved()) return null;
    const ledger = header as unknown as Ledger;
    if (!keep) return { ledger, summary };
    const laidOut = (pass !== null ? mem : (out as Buffer)).subarray(0, records.length);
    // A rewrite seals records of DIGEST_MIN_BYTES or more; shorter ones take the full path.
    if (laidOut.length < DIGEST_MIN_BYTES) return null;
    return { ledger, summary, records: laidOut };
  } catch {
    return null; // not JSON, nested too deeply…: the full read says what
  } finally {
    // The records kept are a view of the pass's memory, and a grown memory would stay with the
    // module: either way the module lets it go (the next proof starts a new one).
    if (pass !== null && (keep || mem.length > scratchAt + 2 * first.length)) pass.release();
  }

  /** A record's text parsed, checked and folded into the summary; false when it does not pass. */
  function folded(text: string, index: number): boolean {
    const record: unknown = JSON.parse(text);
    if (!recordPasses(record, index)) return false;
    if (pass === null && mayRepeatKeys(text, record as object)) return false;
    addRecord(summary, record as IterationRecord);
    return true;
  }

  /**
   * The records' list read by the pass, from the first record's `{` at `from`, a step at a time:
   * each step's bytes written laid out (blanks dropped, `,\n    ` between records) and each
   * record that ended in it parsed from that compact text, which parses quicker than the
   * indented one and, the pass having refused any blank that joined two words, is the same JSON.
   * Between two records exactly one `,` is proved (the separator the pass wrote for it, and
   * nothing else). Where the list's `]` is in the buffer, or null.
   */
  function* passRecords(from: number): ReadSteps<number | null> {
    const proof = pass as KeysPass;
    let start = from;
    let written = keep ? 0 : scratchAt; // where the pass writes on
    let pending = written; // where the records not yet parsed begin (a separator first, but the first)
    for (let index = 0; ;) {
      const length = view.length - start;
      let limit = size + COMPACT_SLACK;
      if (!keep) {
        // Room for what waits and this step's bytes, each `,` grown to a whole separator.
        limit = written + RECORD_SEPARATOR.length * length + COMPACT_SLACK;
        if (mem.length < limit) {
          // The lengths are taken first: growing empties every view of the memory as it was.
          const [held, viewed] = [buffer.length, view.length];
          mem = proof.room(limit);
          buffer = mem.subarray(bufferAt, bufferAt + held);
          view = buffer.subarray(0, viewed);
        }
      } else if (written + length + COMPACT_SLACK > limit) return null;
      written = proof.compactAt(bufferAt + start, length, written, limit, tableAt);
      if (written < 0) return null;
      const count = proof.ended(tableAt, 0);
      for (let k = 0; k < count; k += 1, index += 1) {
        const recordEnd = proof.ended(tableAt, 2 + k);
        let textAt = pending;
        if (index > 0) {
          const separatorEnd = pending + COMPACT_SEPARATOR.length;
          if (mem.compare(COMPACT_SEPARATOR, 0, COMPACT_SEPARATOR.length, pending, separatorEnd) !== 0)
            return null;
          textAt = separatorEnd;
        }
        if (!folded(mem.toString('latin1', textAt, recordEnd), index)) return null;
        pending = recordEnd;
      }
      const stop = proof.ended(tableAt, 1);
      if (stop >= 0) {
        // The list closed: nothing after its last record (no `,` left over).
        if (written !== pending || index === 0) return null;
        records.length = written;
        return stop - bufferAt;
      }
      if (!keep && pending > scratchAt) {
        mem.copyWithin(scratchAt, pending, written);
        written -= pending - scratchAt;
        pending = scratchAt;
      }
      if ((yield* more(view.length)) < 0) return null; // the file ended inside the list
      start = 0;
    }
  }

  /**
   * The records' list read without the pass, from the first record's `{` at `from`: each record
   * found by its layout (from a line `    {` to a line `    }`, then `,` and the next, or the
   * list's close), its keys counted, and for `keep` copied laid out (compact-records.ts).
   * Where the list's close begins in the buffer, or null.
   */
  function* countedRecords(from: number): ReadSteps<number | null> {
    let at = from;
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
      if (!folded(view.toString('latin1', at, stop), index)) return null;
      if (out !== null) {
        if (index > 0) records.length += COMPACT_SEPARATOR.copy(out, records.length);
        records.length = compactRecordInto(view, at, stop, out, records.length);
      }
      if (startsAt(view, stop, RECORD_NEXT)) at = stop + RECORD_NEXT.length - 2;
      else if (startsAt(view, stop, LIST_CLOSE)) return stop;
      else return null;
    }
  }
}

/** `at` rounded up to a multiple of 4 (the pass's table holds 32-bit numbers). */
function align(at: number): number {
  return Math.ceil(at / 4) * 4;
}

/** The header is a ledger's, of no other schema version, unsealed, naming the file's session. */
function headerPasses(header: Record<string, unknown>, session: string): boolean {
  if (Object.hasOwn(header, 'schema_version') && header.schema_version !== SCHEMA_VERSION) return false;
  if (Object.hasOwn(header, RECORDS_DIGEST_KEY) || Object.hasOwn(header, RECORDS_SUMMARY_KEY)) return false;
  return ledgerShapeProblem(header, session, true) === null;
}
