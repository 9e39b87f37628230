// Loading and saving a session's ledger for a command: session-id check, legacy location,
// corrupt/too-new refusals, and every write under the per-ledger lock with a fresh read inside it.
import { existsSync, rmdirSync } from 'node:fs';
import { dirname } from 'node:path';
import { addRecord, summarizeRecords, type RecordsSummary } from '../../engine/records-summary';
import { EXIT } from '../../engine/refusal';
import type { IterationRecord, Ledger } from '../../engine/types';
import {
  appendSealed,
  LedgerTooLargeError,
  LockBusyError,
  LockObstructedError,
  locateLedger,
  readLedgerFile,
  readLedgerPreferSealed,
  readLedgerSummarised,
  saveLedgerFile,
  sessionIdProblem,
  withLock,
  writeTargetOutsideRoot,
  type LedgerLocation,
  type LedgerRead,
} from '../../store';
import { sessionLedgerSteps } from '../../store/locate';
import { runReadSync } from '../../store/read-sync';
import { LEDGER_BUSY, type LockOptions } from './lock-options';
import { Refused } from '../outcome';
import { unreadableBySystem } from '../system-error';

export function checkedLocation(root: string, session: string): LedgerLocation {
  checkSessionId(session);
  return locateLedger(root, session);
}

/** A session id no command may use is exit 2, before anything is read. */
export function checkSessionId(session: string): void {
  const problem = sessionIdProblem(session);
  if (problem) throw new Refused(EXIT.usage, [problem]);
}

/** A readable ledger, or exit 2 naming why there is none. */
export function requireLedger(read: LedgerRead, location: LedgerLocation, session: string): Ledger {
  switch (read.kind) {
    case 'ok':
      return read.ledger;
    case 'absent':
      throw new Refused(EXIT.usage, [`${session}: no ledger at ${location.readPath} (open one first)`]);
    case 'corrupt':
      // Permission denied and the like: exit 74, and no --force hint (it would not help).
      if (unreadableBySystem(read.reason))
        throw new Refused(EXIT.system, [`${location.readPath}: ledger ${read.reason}`]);
      throw new Refused(EXIT.usage, [
        `${location.readPath}: ledger ${read.reason} (open --force replaces it and keeps a .corrupt-<time> copy)`,
      ]);
    case 'too-new':
      throw new Refused(EXIT.usage, [
        `${location.readPath}: ledger has schema_version ${read.version}, newer than this loop-ledger understands; upgrade loop-ledger`,
      ]);
  }
}

export function loadLedger(root: string, session: string): Ledger {
  checkSessionId(session);
  return ledgerOfSession(runReadSync(sessionLedgerSteps(root, session)), session);
}

/**
 * The ledger a read-only command works on, from its session's read (sessionLedgerSteps, driven
 * by loadLedger or loadLedgerAsync), or a Refused naming why there is none.
 */
export function ledgerOfSession(
  found: { location: LedgerLocation; read: LedgerRead },
  session: string,
): Ledger {
  return guardDepth(found.location, () => requireLedger(found.read, found.location, session));
}

/**
 * A hand-made ledger nested thousands of levels deep exhausts the stack somewhere in parsing or
 * processing; it is an unreadable ledger (exit 2), not an internal error.
 */
export function guardDepth<T>(location: LedgerLocation, fn: () => T): T {
  try {
    return fn();
  } catch (error) {
    if (error instanceof RangeError && /call stack/i.test(error.message)) {
      throw new Refused(EXIT.usage, [`${location.readPath}: ledger is nested too deeply to read`]);
    }
    throw error;
  }
}

/**
 * A ledger for a reader that asks only what the records' summary answers (`status`): read
 * through its seal, or record by record, when the file proves either (store/ledger-sealed.ts) —
 * then `records` is given and `ledger.iterations` is empty — else read in full.
 */
export function loadLedgerSummarised(
  root: string,
  session: string,
): { ledger: Ledger; records?: RecordsSummary } {
  const location = checkedLocation(root, session);
  return guardDepth(location, () => {
    const { summarised, read } = readLedgerSummarised(location.readPath, session);
    if (summarised !== undefined) return { ledger: summarised.ledger, records: summarised.summary };
    return { ledger: requireLedger(read, location, session) };
  });
}

/**
 * Runs `decide` on the freshly read ledger while holding the lock; when it returns a ledger, that
 * ledger is written atomically before the lock is released. A busy lock is exit 3.
 */
export function updateLedger<T>(
  root: string,
  session: string,
  decide: (read: LedgerRead, location: LedgerLocation) => { write?: Ledger; result: T },
  lock: LockOptions = {},
): T {
  return underLedgerLock(root, session, lock, (location) => {
    const read = readLedgerFile(location.readPath);
    const { write, result } = decide(read, location);
    if (write) saveAfterRead(location, read, write);
    return result;
  });
}

/**
 * Writes `write` in full; records already on disk are copied as text, not re-serialised (see
 * ledger-layout.ts). `summary`, when given, is the summary of `read`'s records, folded on here
 * when `write` only appends to them.
 */
function saveAfterRead(
  location: LedgerLocation,
  read: LedgerRead,
  write: Ledger,
  summary?: RecordsSummary,
): void {
  const previous =
    read.kind === 'ok'
      ? { text: read.text, iterations: read.ledger.iterations, records: read.records, bytes: read.bytes }
      : undefined;
  saveLedgerFile(
    location.writePath,
    write,
    previous,
    previous && summaryOfAppend(previous.iterations, write, summary),
  );
}

/**
 * `summary` (of `old`) folded forward over the records `write` appends, in place; undefined
 * unless `write.iterations` starts with exactly the objects of `old` (then the write folds every
 * record itself).
 */
function summaryOfAppend(
  old: readonly IterationRecord[],
  write: Ledger,
  summary: RecordsSummary | undefined,
): RecordsSummary | undefined {
  const records = write.iterations;
  if (summary === undefined || records.length < old.length || summary.count !== old.length) return undefined;
  for (let i = 0; i < old.length; i += 1) if (records[i] !== old[i]) return undefined;
  for (let i = old.length; i < records.length; i += 1) addRecord(summary, records[i] as IterationRecord);
  return summary;
}

/**
 * updateLedger for a command whose every write APPENDS records and that reads old records only
 * through their summary (`iterate`). A long ledger this store wrote is read through its seal:
 * `decide` then gets `records` and a ledger whose `iterations` is empty, returns a ledger whose
 * `iterations` holds just the new records, and the old ones are carried into the file as bytes.
 * Any other ledger is read and written in full, and `records` is the summary of all its records.
 */
export function appendToLedger<T>(
  root: string,
  session: string,
  decide: (ledger: Ledger, records: RecordsSummary | undefined) => { write?: Ledger; result: T },
  lock: LockOptions = {},
): T {
  return underLedgerLock(root, session, lock, (location) => {
    // Only a ledger already in its .loop home: a first write out of the original engine's
    // folder is a full write.
    const { sealed, read } =
      location.readPath === location.writePath
        ? readLedgerPreferSealed(location.readPath, session)
        : { read: readLedgerFile(location.readPath) };
    if (sealed === undefined) {
      // The old records' summary is folded once, for the engine and then for the write's seal
      // (on a long ledger the original engine wrote, each fold is a pass over every record).
      const ledger = requireLedger(read, location, session);
      const summary = summarizeRecords(ledger.iterations);
      const { write, result } = decide(ledger, summary);
      if (write) saveAfterRead(location, read, write, summary);
      return result;
    }
    const { write, result } = decide(sealed.ledger, sealed.summary);
    if (write) appendSealed(location.writePath, sealed, write);
    return result;
  });
}

/**
 * Where the session's ledger is written, refused (exit 2) when that would be outside the root (a
 * cloned repository's `.loop` or `.loop/ledgers` as a link to elsewhere). The lock is always the
 * .loop ledger's, whichever file is read: a session still in the original engine's folder and
 * one already moved are the same session to every writer.
 */
export function ledgerWritePath(root: string, session: string): string {
  const writePath = checkedLocation(root, session).writePath;
  const outside = writeTargetOutsideRoot(root, writePath);
  if (outside !== null) throw new Refused(EXIT.usage, [`${session}: ${outside}`]);
  return writePath;
}

/**
 * Runs `fn` holding the session's lock, with the ledger located again under it and the write
 * target checked to be inside the root. A busy lock is exit 3.
 */
function underLedgerLock<T>(
  root: string,
  session: string,
  lock: LockOptions,
  fn: (location: LedgerLocation) => T,
): T {
  const writePath = ledgerWritePath(root, session);
  const madeForLock = missingFolders(writePath);
  try {
    return withLock(
      writePath,
      () => {
        // Located again under the lock: a writer that got the lock first may have just created
        // the .loop ledger, and from then on the original engine's file is stale.
        const location = locateLedger(root, session);
        return guardDepth(location, () => fn(location));
      },
      { waitMs: lock.waitMs },
    );
  } catch (error) {
    if (error instanceof LockBusyError)
      throw new Refused(EXIT.wrongState, [{ message: `${session}: ${error.message}`, code: LEDGER_BUSY }]);
    if (error instanceof LockObstructedError) throw new Refused(EXIT.system, [error.message]);
    // Like the read side's refusal of a ledger over the cap (exit 2), before anything is written.
    if (error instanceof LedgerTooLargeError) throw new Refused(EXIT.usage, [error.message]);
    throw error;
  } finally {
    removeIfEmpty(madeForLock);
  }
}

/**
 * The folders above `file` that do not exist yet, deepest first. Taking the lock creates them
 * (`.loop/ledgers` in a fresh workspace); a refusal must leave the workspace as it found it.
 */
function missingFolders(file: string): string[] {
  const missing: string[] = [];
  for (let dir = dirname(file); !existsSync(dir); dir = dirname(dir)) {
    missing.push(dir);
    if (dirname(dir) === dir) break;
  }
  return missing;
}

/** rmdir removes only an empty folder: one holding a ledger (or another writer's lock) stays. */
function removeIfEmpty(folders: string[]): void {
  for (const dir of folders) {
    try {
      rmdirSync(dir);
    } catch {
      return; // not empty (written, or in use by another process), or already gone
    }
  }
}
