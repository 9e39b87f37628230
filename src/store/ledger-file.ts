// Reading and writing one ledger file. Reading never throws for a bad file: the caller gets a
// verdict (absent, ok, corrupt, too new; ledger-verdict.ts) and decides the exit code and
// message; the read itself is read-steps.ts's, driven here with blocking calls. Writing goes
// through the atomic writer; the caller holds the ledger's lock around read-decide-write.
import {
  closeSync,
  constants,
  copyFileSync,
  fsyncSync,
  lstatSync,
  openSync,
  renameSync,
  type Stats,
} from 'node:fs';
import type { RecordsSummary } from '../engine/records-summary';
import { basicUtc } from '../engine/utc-iso';
import type { Ledger } from '../engine/types';
import { removeDeadWritersTemps, writeFileAtomicSync } from './atomic-write';
import { layoutLedger, layoutLedgerParts, type PreviousText } from './ledger-layout';
import { SCHEMA_VERSION, type LedgerRead } from './ledger-verdict';
import { LEDGER_SIZE_LIMIT, MiB } from './limits';
import { ledgerBytesSteps, ledgerFileSteps, ledgerPiecesSteps } from './read-steps';
import { runReadSync } from './read-sync';

export { decodeLedgerBytes, parseLedgerText, SCHEMA_VERSION } from './ledger-verdict';
export type { LedgerRead } from './ledger-verdict';

/**
 * Reads and checks a ledger file. Only a regular file no larger than LEDGER_SIZE_LIMIT is read,
 * and its size is taken from the opened descriptor, so what is checked is what is read.
 */
export function readLedgerFile(path: string): LedgerRead {
  return runReadSync(ledgerFileSteps(path)).read;
}

/**
 * The bytes of a regular file of at most LEDGER_SIZE_LIMIT, read as a ledger is (no symlink
 * followed, no FIFO or device waited on), or undefined: for the run's own small files, which a
 * cloned repository could replace by a link to a device that never ends.
 */
export function readRegularFileBytes(path: string): Buffer | undefined {
  const read = loadLedgerBytes(path);
  return Buffer.isBuffer(read) ? read : undefined;
}

/** The first `count` bytes of a ledger file, or null (no regular file, unreadable). */
export function readLedgerHead(path: string, count: number): Buffer | null {
  const pieces = runReadSync(ledgerPiecesSteps(path, { head: count }));
  return typeof pieces === 'object' && pieces !== null ? pieces.head : null;
}

/** The bytes of a ledger file, or the verdict when it cannot be read (readLedgerFile's first step). */
export function loadLedgerBytes(path: string): Buffer | LedgerRead {
  const got = runReadSync(ledgerBytesSteps(path));
  return 'refused' in got ? got.refused : got.bytes;
}

/** The file text, with `schema_version` set (layout: ledger-layout.ts). */
export function serializeLedger(ledger: Ledger, previous?: PreviousText): string {
  return layoutLedger({ ...ledger, schema_version: SCHEMA_VERSION }, previous);
}

/**
 * A write refused because the ledger it would leave is over LEDGER_SIZE_LIMIT: every reader
 * refuses such a file, so writing it would lock the loop out of its own ledger.
 */
export class LedgerTooLargeError extends Error {
  constructor(path: string, size: number) {
    super(
      `${path}: this write would make the ledger ${(size / MiB).toFixed(1)} MiB, over the ${LEDGER_SIZE_LIMIT / MiB} MiB ledger size limit; nothing was written`,
    );
    this.name = 'LedgerTooLargeError';
  }
}

/**
 * Writes a ledger's parts atomically, unless together they pass LEDGER_SIZE_LIMIT (then
 * LedgerTooLargeError, and the file is left as it was). Shared by the full and the sealed writer.
 */
export function writeLedgerParts(path: string, parts: readonly (string | Uint8Array)[]): void {
  let size = 0;
  for (const part of parts)
    size += typeof part === 'string' ? Buffer.byteLength(part, 'utf8') : part.byteLength;
  if (size > LEDGER_SIZE_LIMIT) throw new LedgerTooLargeError(path, size);
  writeFileAtomicSync(path, parts);
  removeDeadWritersTemps(path);
}

/**
 * Writes the ledger atomically. Call it under withLock, after re-reading the file. Holding the
 * lock is also what makes it safe to sweep temporary files left by writers that were killed.
 * `summary`, when given, is the summary of exactly `ledger.iterations` (see layoutLedgerParts).
 */
export function saveLedgerFile(
  path: string,
  ledger: Ledger,
  previous?: PreviousText,
  summary?: RecordsSummary,
): void {
  writeLedgerParts(path, layoutLedgerParts({ ...ledger, schema_version: SCHEMA_VERSION }, previous, summary));
}

/**
 * Copies a ledger that is about to be replaced (`open --force` over a corrupt file) to
 * `<path>.corrupt-<YYYYMMDDTHHMMSSZ>` and returns the copy's path (an entry that is not a
 * readable regular file is renamed there instead). An existing copy from the
 * same second is never overwritten: a `-2`, `-3`… suffix is added instead. The copy is fsynced
 * so it is on disk before the caller's atomic rename replaces the original.
 */
export function keepCorruptCopy(path: string, now: Date): string {
  const stamp = basicUtc(now.getTime());
  // A symlink, a FIFO or a file over the size limit is never read (copying /dev/zero or a FIFO
  // would never end): the entry itself is moved aside instead, as it is.
  const entry = lstatSync(path);
  const moveAside = !entry.isFile() || entry.size > LEDGER_SIZE_LIMIT;
  for (let attempt = 1; ; attempt += 1) {
    const copy = attempt === 1 ? `${path}.corrupt-${stamp}` : `${path}.corrupt-${stamp}-${attempt}`;
    if (moveAside) {
      if (lstatOrNull(copy) !== null) continue;
      renameSync(path, copy);
      return copy;
    }
    try {
      copyFileSync(path, copy, constants.COPYFILE_EXCL);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'EEXIST') continue;
      throw error;
    }
    const fd = openSync(copy, 'r');
    try {
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
    return copy;
  }
}

function lstatOrNull(path: string): Stats | null {
  try {
    return lstatSync(path);
  } catch {
    return null;
  }
}
