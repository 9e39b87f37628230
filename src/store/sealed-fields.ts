// A long sealed ledger read for its charts only: the header parsed, the records streamed through
// a buffer of a few megabytes (never the whole 100 MB at once), each record's bytes hashed
// against the seal and scanned for the fields the overview draws (record-fields.ts); only the
// newest MAX_FULL records are parsed whole. The offset of every record is kept, so a click on an
// iteration reads that one line again (recordAtSteps).
//
// Why it answers what the full read answers: the seal (records-digest.ts) proves the records are
// byte for byte those this store wrote and checked, which the full read also relies on (it then
// skips their shape check); the header passes the sealed reader's own checks (ledger-sealed.ts);
// every record is checked as JSON.parse checks it, and each field kept is the value JSON.parse
// gives. Anything else — no seal, a seal that does not match, bytes that are not UTF-8, a record
// the scanner does not vouch for, a count other than the summary's — is null, and the caller
// takes the full read, which shows the tree's reason for a malformed ledger.
import { isUtf8 } from 'node:buffer';
import type { Stats } from 'node:fs';
import { recordEpoch } from '../engine/ledger-view';
import { epochSummary, type RecordsSummary } from '../engine/records-summary';
import type { IterationRecord, Ledger } from '../engine/types';
import { RECORDS_OPEN, recordsEnd, sealedFrame } from './ledger-sealed';
import { unreadableEntry } from './ledger-verdict';
import { finishDigest, hashOfRecords, DIGEST_MIN_BYTES } from './records-digest';
import { recordFields, type FieldWants, type RecordFields } from './record-fields';
import { openedPieces, readAtSteps, type ReadSteps } from './read-steps';

/** The newest records are parsed whole (the lists of the newest stalls, verdicts and runs). */
const MAX_FULL = 200;
/** Bytes streamed per read. */
const CHUNK = 4 * 1024 * 1024;
/** The header around the records is looked for within these many bytes at each end. */
const HEAD_MAX = 4 * 1024 * 1024;
const TAIL_BYTES = 1024 * 1024;
const SEPARATOR = Buffer.from(',\n    ', 'latin1');

export interface SealedFields {
  /** The file's keys with `iterations` empty: the records went to the sink. */
  header: Ledger;
  /** The records' summary stored in the header, its count and epoch counts checked against the records. */
  summary: RecordsSummary;
  /** Each record's `n`, in file order. */
  numbers: Float64Array;
  /** Where each record's bytes start, and (last entry) where the records end. */
  offsets: Float64Array;
  size: number;
  mtimeMs: number;
}

/** Where the records go, one by one in file order: the newest MAX_FULL whole, the rest as RecordFields. */
export interface RecordSink {
  /** Which fields to parse whole of every record (the ledger's kind needs them). */
  wants: FieldWants;
  add(record: IterationRecord | RecordFields): void;
}

/**
 * The ledger at `path` (named after `session`) read for its charts, or null for the full read.
 * `sink(header, count)` takes the records.
 */
export function* sealedFieldsSteps(
  path: string,
  session: string,
  sink: (header: Ledger, count: number) => RecordSink,
): ReadSteps<SealedFields | null> {
  return yield* onLedgerFile(path, function* (stat) {
    if (stat.size < DIGEST_MIN_BYTES) return null;
    return yield* sealedFieldsOpened(stat, session, sink);
  });
}

/**
 * `body` on the file at `path` opened as a ledger is (no symlink followed, no FIFO waited on,
 * only a regular file within the cap): null when it cannot be opened, is no such file, or any
 * read fails — the caller then takes the full read, which says why.
 */
function* onLedgerFile<T>(path: string, body: (stat: Stats) => ReadSteps<T | null>): ReadSteps<T | null> {
  try {
    yield { kind: 'open', path };
  } catch {
    return null;
  }
  try {
    const stat = (yield { kind: 'stat' }) as Stats;
    if (unreadableEntry(stat) !== null) return null;
    return yield* body(stat);
  } catch {
    return null;
  } finally {
    yield { kind: 'close' };
  }
}

function* sealedFieldsOpened(
  stat: Stats,
  session: string,
  sinkOf: (header: Ledger, count: number) => RecordSink,
): ReadSteps<SealedFields | null> {
  const pieces = yield* openedPieces(
    { head: { until: RECORDS_OPEN, beyond: 0, step: 256 * 1024, max: HEAD_MAX }, tail: TAIL_BYTES },
    stat,
  );
  if (pieces === null) return null;
  const size = pieces.size;
  const start = pieces.head.indexOf(RECORDS_OPEN) + RECORDS_OPEN.length;
  const tailAt = size - pieces.tail.length;
  const closeInTail = recordsEnd(pieces.tail, Math.max(1, start - tailAt));
  if (closeInTail < 0) return null;
  const end = tailAt + closeInTail;
  if (end - start < DIGEST_MIN_BYTES) return null;
  const frame = sealedFrame(pieces.head.subarray(0, start), pieces.tail.subarray(closeInTail), session);
  if (frame === null) return null;
  const { header, summary } = frame;
  const count = summary.count;
  const rubric = (header.contract as Ledger['contract']).quality_rubric;
  const names = Array.isArray(rubric) ? rubric.map((d) => d.dimension) : [];
  if (count < 1 || count > (end - start) / 2) return null;
  const ledger = { ...header, iterations: [] } as unknown as Ledger;
  const sink = sinkOf(ledger, count);
  const fields = sink.wants;
  const numbers = new Float64Array(count);
  const offsets = new Float64Array(count + 1);
  // Records per epoch (as the engine counts them), to check the stored summary's counts.
  const perEpoch = new Map<number, number>();
  const hash = hashOfRecords([]);
  let buffer = Buffer.allocUnsafe(Math.min(CHUNK, end - start));
  let kept = 0; // bytes at the buffer's start carried over from the last read (a record's beginning)
  let position = start; // the file offset of the buffer's first byte
  let index = 0;
  while (position + kept < end) {
    if (kept === buffer.length) {
      // One record longer than the buffer: grow it.
      const bigger = Buffer.allocUnsafe(buffer.length * 2);
      buffer.copy(bigger, 0, 0, kept);
      buffer = bigger;
    }
    const asked = Math.min(buffer.length - kept, end - position - kept);
    const got = yield* readAtSteps(buffer, position + kept, kept, asked);
    if (got !== asked) return null; // the file shrank while read
    hash.update(buffer.subarray(kept, kept + got)); // every byte once, as read
    const filled = kept + got;
    const view = buffer.subarray(0, filled);
    const last = position + filled === end;
    let at = 0;
    while (at < filled) {
      // A record holds no line break, so the separator is only ever between records.
      const separator = separatorAt(view, at);
      const recordEnd = separator >= 0 ? separator : last ? filled : -1;
      if (recordEnd < 0) break; // the rest of this record comes with the next read
      if (index >= count) return null;
      offsets[index] = position + at;
      const record =
        index >= count - MAX_FULL
          ? wholeRecord(view, at, recordEnd)
          : recordFields(view, at, recordEnd, names, fields);
      if (record === null) return null;
      numbers[index] = record.n;
      const epoch = recordEpoch(record as Pick<IterationRecord, 'epoch'>);
      perEpoch.set(epoch, (perEpoch.get(epoch) ?? 0) + 1);
      sink.add(record);
      index += 1;
      at = separator >= 0 ? separator + SEPARATOR.length : filled;
    }
    // Records are cut at an ASCII separator, never inside a character.
    if (!isUtf8(view.subarray(0, at))) return null;
    buffer.copy(buffer, 0, at, filled);
    kept = filled - at;
    position += at;
  }
  offsets[count] = end;
  if (index !== count || kept !== 0) return null;
  if (finishDigest(hash, frame.summaryText) !== frame.claimed) return null;
  if (!sameEpochCounts(summary, perEpoch)) return null;
  return { header: ledger, summary, numbers, offsets, size, mtimeMs: pieces.mtimeMs };
}

/** Whether the summary counts, per epoch, the records that were read. */
function sameEpochCounts(summary: RecordsSummary, perEpoch: ReadonlyMap<number, number>): boolean {
  const keys = Object.keys(summary.epochs);
  if (keys.length !== perEpoch.size) return false;
  for (const [epoch, records] of perEpoch) if (epochSummary(summary, epoch).records !== records) return false;
  return true;
}

/** Where the next separator (`,` line break, four blanks) is from `at`, or -1 (a byte search: quicker than the pattern's). */
function separatorAt(view: Buffer, at: number): number {
  const lineBreak = view.indexOf(0x0a, at);
  if (lineBreak < 0 || lineBreak === 0) return -1;
  // A record holds no line break, so this is the separator's, whole or cut by the read's end.
  return lineBreak - 1 + SEPARATOR.length <= view.length ? lineBreak - 1 : -1;
}

/** A record parsed whole, or null when it is not one object (as JSON.parse reads it). */
function wholeRecord(buffer: Buffer, from: number, to: number): IterationRecord | null {
  if (buffer[from] !== 0x7b || buffer[to - 1] !== 0x7d) return null;
  // The scanner vouches for the layout (one record, no blank) before the parse builds it.
  if (recordFields(buffer, from, to, [], { repeat: false, actions: false }) === null) return null;
  try {
    return JSON.parse(buffer.toString('utf8', from, to)) as IterationRecord;
  } catch {
    return null;
  }
}

/**
 * Record `index` of a ledger read by sealedFieldsSteps, parsed whole from the same file, or null
 * when the file is no longer the one read (its size or mtime changed): then read it in full.
 */
export function* recordAtSteps(
  path: string,
  read: Pick<SealedFields, 'offsets' | 'size' | 'mtimeMs'>,
  index: number,
): ReadSteps<IterationRecord | null> {
  return yield* onLedgerFile(path, function* (stat) {
    if (stat.size !== read.size || stat.mtimeMs !== read.mtimeMs) return null;
    const from = read.offsets[index]!;
    const to =
      index + 1 < read.offsets.length - 1
        ? read.offsets[index + 1]! - SEPARATOR.length
        : read.offsets[index + 1]!;
    const bytes = Buffer.allocUnsafe(to - from);
    if ((yield* readAtSteps(bytes, from)) !== bytes.length) return null;
    return JSON.parse(bytes.toString('utf8')) as IterationRecord;
  });
}
