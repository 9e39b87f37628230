// Reading ledgers without blocking the caller's thread, for the extension host: every step is a
// promise (open, fstat, read), so the window keeps painting while hundreds of ledgers load. The
// flags, verdicts and decoding are the synchronous reader's own (ledger-file.ts): one rule, two readers.
import { open, readdir, type FileHandle } from 'node:fs/promises';
import { join } from 'node:path';
import { isUtf8 } from 'node:buffer';
import {
  decodeLedgerBytes,
  openFailure,
  oversized,
  READ_FLAGS,
  readFailure,
  unreadableEntry,
  type LedgerRead,
} from './ledger-file';
import { LEDGER_SIZE_LIMIT } from './limits';
import { ledgerDir, ledgerPath, legacyLedgerDir, legacyLedgerPath } from './paths';
import { deviceNamed, sessionOfLedgerFileName, summaryOfRead, type SessionSummary } from './discover';
import { isWindowsDeviceId } from './session-id';

/**
 * One ledger file, read through a single descriptor: the file checked (a regular file within
 * the size cap) is the file read. Never throws for a bad file.
 */
export async function readLedgerFileAsync(path: string): Promise<LedgerRead> {
  return (await readLedgerFileTimedAsync(path)).read;
}

/**
 * The read, and the file's mtime as seen through the same descriptor (0 when unknown). Opened
 * with the synchronous reader's flags (no symlink followed, a FIFO never waited on — a blocked
 * open would hold a libuv thread for good), judged by its verdicts, decoded by its decoder.
 */
export async function readLedgerFileTimedAsync(path: string): Promise<{ read: LedgerRead; mtimeMs: number }> {
  let handle;
  try {
    handle = await open(path, READ_FLAGS);
  } catch (error) {
    return { read: openFailure(error), mtimeMs: 0 };
  }
  let mtimeMs = 0;
  try {
    const stat = await handle.stat();
    mtimeMs = stat.mtimeMs;
    const refused = unreadableEntry(stat);
    if (refused) return { read: refused, mtimeMs };
    // The size cap holds even for a file that grows after fstat.
    const bytes = await readCapped(handle);
    if (typeof bytes === 'number') return { read: oversized(bytes), mtimeMs };
    return { read: decodeLedgerBytes(bytes, path), mtimeMs };
  } catch (error) {
    return { read: readFailure(error), mtimeMs };
  } finally {
    await handle.close().catch(() => undefined);
  }
}

/** What readTextFileAsync found: the text, no file, or why the file is not read. */
export type TextRead =
  { kind: 'ok'; text: string } | { kind: 'absent' } | { kind: 'refused'; reason: string };

/**
 * A UTF-8 text file of at most `cap` bytes (a contract, a kept brief packet), read with the
 * ledger reader's flags and checks: no symlink followed, no FIFO waited on, only a regular file,
 * the cap enforced on the bytes read (not on a size the file may change after). Never throws.
 */
export async function readTextFileAsync(path: string, cap: number): Promise<TextRead> {
  let handle;
  try {
    handle = await open(path, READ_FLAGS);
  } catch (error) {
    const read = openFailure(error);
    return read.kind === 'absent' ? read : { kind: 'refused', reason: reasonOf(read) };
  }
  try {
    const stat = await handle.stat();
    if (!stat.isFile()) return { kind: 'refused', reason: 'is not a regular file' };
    if (stat.size > cap) return { kind: 'refused', reason: `is larger than ${cap} bytes` };
    const bytes = await readCapped(handle, cap);
    if (typeof bytes === 'number') return { kind: 'refused', reason: `is larger than ${cap} bytes` };
    if (!isUtf8(bytes)) return { kind: 'refused', reason: 'is not valid UTF-8 text' };
    const bom = bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf ? 3 : 0;
    return { kind: 'ok', text: bytes.toString('utf8', bom) };
  } catch (error) {
    return { kind: 'refused', reason: reasonOf(readFailure(error)) };
  } finally {
    await handle.close().catch(() => undefined);
  }
}

function reasonOf(read: LedgerRead): string {
  return read.kind === 'corrupt' ? read.reason.replace(/; ledgers are .*$/, '') : read.kind;
}

/** The whole file, or the byte count read when it passed `cap`. */
async function readCapped(handle: FileHandle, cap = LEDGER_SIZE_LIMIT): Promise<Buffer | number> {
  const chunks: Buffer[] = [];
  let total = 0;
  for (;;) {
    const chunk = Buffer.allocUnsafe(1024 * 1024);
    const { bytesRead } = await handle.read(chunk, 0, chunk.length, null);
    if (bytesRead === 0) return Buffer.concat(chunks, total);
    total += bytesRead;
    if (total > cap) return total;
    chunks.push(bytesRead === chunk.length ? chunk : chunk.subarray(0, bytesRead));
  }
}

export interface LedgerFileRef {
  session: string;
  path: string;
  /** In the original engine's folder (.claude/.runtime/work-loop/). */
  legacy: boolean;
}

/**
 * The ledger files under `root`, by session id; a session in .loop/ledgers wins over the original
 * engine's file of the same id (as listSessions and locateLedger decide). Nothing is read.
 */
export async function listLedgerFilesAsync(root: string): Promise<LedgerFileRef[]> {
  const found = new Map<string, LedgerFileRef>();
  for (const [dir, legacy] of [
    [ledgerDir(root), false],
    [legacyLedgerDir(root), true],
  ] as const) {
    for (const session of await sessionFilesIn(dir)) {
      if (!found.has(session)) found.set(session, { session, path: join(dir, `${session}.json`), legacy });
    }
  }
  return [...found.keys()].sort().map((session) => found.get(session) as LedgerFileRef);
}

/**
 * One session's ledger as it is now: its .loop file, else the original engine's, read once.
 * Null when neither exists.
 */
export async function readSessionLedgerAsync(
  root: string,
  session: string,
): Promise<{ ref: LedgerFileRef; read: Exclude<LedgerRead, { kind: 'absent' }>; mtimeMs: number } | null> {
  for (const [path, legacy] of [
    [ledgerPath(root, session), false],
    [legacyLedgerPath(root, session), true],
  ] as const) {
    const { read, mtimeMs } = await readLedgerFileTimedAsync(path);
    if (read.kind !== 'absent') return { ref: { session, path, legacy }, read, mtimeMs };
  }
  return null;
}

/** The same filter as `list` (discover.ts): `<id>.json`, not a folder. */
async function sessionFilesIn(dir: string): Promise<string[]> {
  let entries;
  try {
    entries = await readdir(dir, { withFileTypes: true });
  } catch {
    return [];
  }
  return entries.flatMap((entry) => {
    const session = entry.isDirectory() ? null : sessionOfLedgerFileName(entry.name);
    return session === null ? [] : [session];
  });
}

/**
 * listSessions without blocking: the same files (listLedgerFilesAsync shares its filter and
 * precedence), each summarised by the same rule, a device-named file listed and never opened.
 */
export async function listSessionsAsync(root: string): Promise<SessionSummary[]> {
  const summaries: SessionSummary[] = [];
  for (const { session, path, legacy } of await listLedgerFilesAsync(root)) {
    summaries.push(
      isWindowsDeviceId(session)
        ? deviceNamed(session, path, legacy)
        : summaryOfRead(session, path, legacy, await readLedgerFileAsync(path)),
    );
  }
  return summaries;
}
