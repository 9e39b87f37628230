// How the ledger worker thread (dist/overviewWorker.js) reads a ledger: the same verdicts as the
// tree's asynchronous reader (entryOf), through the store's synchronous reader. That thread may
// block, and one read into a buffer of the file's size costs far less than the asynchronous
// reader's megabyte steps (about a second less on a 100 MB ledger). Never imported by host code.
import { stat } from 'node:fs/promises';
import { ledgerPath, legacyLedgerPath, sessionIdProblem } from '../../store';
import { readLedgerFile } from '../../store/ledger-file';
import type { LedgerFileRef } from '../../store/read-async';
import { isWindowsDeviceId } from '../../store/session-id';
import { entryOf, readListedAsync, type TimedEntry } from './sessionEntry';

/** A read and the file's size, to tell later whether the file changed since. */
export interface SizedRead {
  timed: TimedEntry;
  size: number;
}

export async function sizeAndTime(path: string): Promise<{ mtimeMs: number; size: number } | null> {
  try {
    const s = await stat(path);
    return { mtimeMs: s.mtimeMs, size: s.size };
  } catch {
    return null;
  }
}

/**
 * One listed file. The stat comes first: a write after it shows later as a newer mtime, so a
 * kept read is never taken for newer than it is.
 */
export async function readFileNow(root: string, file: LedgerFileRef): Promise<SizedRead> {
  if (isWindowsDeviceId(file.session)) return { timed: await readListedAsync(root, file), size: -1 };
  const seen = await sizeAndTime(file.path);
  const entry = entryOf(root, file, readLedgerFile(file.path));
  return { timed: { entry, mtimeMs: seen?.mtimeMs ?? 0 }, size: seen?.size ?? -1 };
}

/** The session's ledger as the tree finds it (.loop first, then the original engine's folder). */
export async function readSessionNow(root: string, session: string): Promise<SizedRead | undefined> {
  if (sessionIdProblem(session) !== null) return undefined;
  for (const [path, legacy] of [
    [ledgerPath(root, session), false],
    [legacyLedgerPath(root, session), true],
  ] as const) {
    const seen = await sizeAndTime(path);
    const read = readLedgerFile(path);
    if (read.kind === 'absent') continue;
    const entry = entryOf(root, { session, path, legacy }, read);
    return { timed: { entry, mtimeMs: seen?.mtimeMs ?? 0 }, size: seen?.size ?? -1 };
  }
  return undefined;
}
