// Reading ledgers without blocking the caller's thread, for the extension host: every step is a
// promise (open, fstat, read), so the window keeps painting while hundreds of ledgers load. The
// checks after decoding are the synchronous reader's own (parseLedgerText): one rule, two readers.
import { isUtf8 } from 'node:buffer';
import { open, readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { parseLedgerText, type LedgerRead } from './ledger-file';
import { LEDGER_SIZE_LIMIT, MiB } from './limits';
import { ledgerDir, ledgerPath, legacyLedgerDir, legacyLedgerPath } from './paths';
import { sessionIdProblem } from './session-id';

/**
 * One ledger file, read through a single descriptor: the file checked (a regular file within
 * the size cap) is the file read. Never throws for a bad file.
 */
export async function readLedgerFileAsync(path: string): Promise<LedgerRead> {
  return (await readLedgerFileTimedAsync(path)).read;
}

/** The read, and the file's mtime as seen through the same descriptor (0 when unknown). */
export async function readLedgerFileTimedAsync(path: string): Promise<{ read: LedgerRead; mtimeMs: number }> {
  let handle;
  try {
    handle = await open(path, 'r');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') return { read: { kind: 'absent' }, mtimeMs: 0 };
    return {
      read: { kind: 'corrupt', reason: `cannot be read (${code ?? (error as Error).message})` },
      mtimeMs: 0,
    };
  }
  let mtimeMs = 0;
  try {
    const stat = await handle.stat();
    mtimeMs = stat.mtimeMs;
    if (!stat.isFile()) return { read: { kind: 'corrupt', reason: 'is not a regular file' }, mtimeMs };
    if (stat.size > LEDGER_SIZE_LIMIT) {
      const reason = `is ${(stat.size / MiB).toFixed(0)} MiB, over the ${LEDGER_SIZE_LIMIT / MiB} MiB limit`;
      return { read: { kind: 'corrupt', reason }, mtimeMs };
    }
    const bytes = await handle.readFile();
    if (!isUtf8(bytes)) return { read: { kind: 'corrupt', reason: 'is not valid UTF-8 text' }, mtimeMs };
    const bom = bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf ? 3 : 0;
    return { read: parseLedgerText(bytes.toString('utf8', bom)), mtimeMs };
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    const reason = `cannot be read (${code ?? (error as Error).message})`;
    return { read: { kind: 'corrupt', reason }, mtimeMs };
  } finally {
    await handle.close().catch(() => undefined);
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

/** Same filter as discover.ts: `<valid id>.json`, not a folder; lock, temp and kept copies never match. */
async function sessionFilesIn(dir: string): Promise<string[]> {
  let entries;
  try {
    entries = await readdir(dir, { withFileTypes: true });
  } catch {
    return [];
  }
  const sessions: string[] = [];
  for (const entry of entries) {
    if (!entry.name.endsWith('.json') || entry.isDirectory()) continue;
    const session = entry.name.slice(0, -'.json'.length);
    if (sessionIdProblem(session) === null) sessions.push(session);
  }
  return sessions;
}
