// What the tree knows about one session: its ledger read through the store, or why it could not
// be read. No vscode here: the same code feeds the tree, the pickers, the status bar and bench.
import { status, type StatusPayload } from '../../engine/status';
import type { WholeLedgerFacts } from '../../engine/overview/dashboard';
import type { Ledger } from '../../engine/types';
import { sessionIdProblem, type LedgerRead } from '../../store';
import { deviceNameProblem } from '../../store/discover';
import { isWindowsDeviceId } from '../../store/session-id';
import {
  listLedgerFilesAsync,
  readLedgerFileTimedAsync,
  readSessionLedgerAsync,
  type LedgerFileRef,
} from '../../store/read-async';

export interface SessionKey {
  /** Absolute path of the workspace root (the CLI's --root). */
  readonly root: string;
  readonly session: string;
}

export interface ReadableSession extends SessionKey {
  readonly kind: 'ledger';
  readonly path: string;
  /** Read from the original engine's folder (.claude/.runtime/work-loop/). */
  readonly legacy: boolean;
  readonly ledger: Ledger;
  /** The engine's own status payload: the tree shows what `loop-ledger status` would say. */
  readonly status: StatusPayload;
  /** Set when `ledger.iterations` holds only the newest records: the rest stayed in the worker. */
  readonly held?: HeldRecords;
}

/**
 * A long ledger read in the ledger worker: its records stay there (the extension host would spend
 * its event loop receiving and collecting tens of thousands of them), and the host gets the
 * newest records and how many each epoch holds. Expanding an epoch asks the worker for its records.
 */
export interface HeldRecords extends WholeLedgerFacts {
  /** Records in the ledger in all. */
  readonly total: number;
  /** Records per epoch number, in all. */
  readonly byEpoch: Readonly<Record<number, number>>;
}

export interface BrokenSession extends SessionKey {
  readonly kind: 'broken';
  readonly path: string;
  readonly legacy: boolean;
  readonly problem: string;
}

export type SessionEntry = ReadableSession | BrokenSession;

/** A session entry and its file's mtime when it was read (the tree skips re-reading an unchanged file). */
export interface TimedEntry {
  readonly entry: SessionEntry;
  readonly mtimeMs: number;
}

/**
 * Every session under `root`, by id (.loop wins over the original folder). Each ledger is read
 * and parsed once, asynchronously, so the extension host stays responsive while they load.
 */
export async function readSessionsAsync(root: string): Promise<TimedEntry[]> {
  const entries: TimedEntry[] = [];
  for (const file of await listLedgerFilesAsync(root)) entries.push(await readListedAsync(root, file));
  return entries;
}

/**
 * One listed ledger file as the tree shows it. A Windows device name is listed as `list` lists
 * it and never opened: no command can address it by that id.
 */
export async function readListedAsync(root: string, file: LedgerFileRef): Promise<TimedEntry> {
  if (isWindowsDeviceId(file.session)) {
    const problem = deviceNameProblem(file.session);
    const base = { root, session: file.session, path: file.path, legacy: file.legacy };
    return { entry: { kind: 'broken', ...base, problem }, mtimeMs: 0 };
  }
  const { read, mtimeMs } = await readLedgerFileTimedAsync(file.path);
  return { entry: entryOf(root, file, read), mtimeMs };
}

/** One session as it is now on disk, or undefined when it has no ledger (any more). */
export async function readSessionAsync(root: string, session: string): Promise<TimedEntry | undefined> {
  if (sessionIdProblem(session) !== null) return undefined;
  const found = await readSessionLedgerAsync(root, session);
  return found ? { entry: entryOf(root, found.ref, found.read), mtimeMs: found.mtimeMs } : undefined;
}

/** What the tree shows for one read of a listed file (also the overview worker's verdict). */
export function entryOf(root: string, file: LedgerFileRef, read: LedgerRead): SessionEntry {
  const base = { root, session: file.session, path: file.path, legacy: file.legacy };
  switch (read.kind) {
    case 'ok':
      try {
        return { kind: 'ledger', ...base, ledger: read.ledger, status: status(read.ledger).payload };
      } catch (error) {
        // JSON that has the four required keys but nonsense inside (e.g. a record that is a number).
        return { kind: 'broken', ...base, problem: `unreadable ledger: ${(error as Error).message}` };
      }
    case 'absent':
      return { kind: 'broken', ...base, problem: 'disappeared while listing' };
    case 'corrupt':
      return { kind: 'broken', ...base, problem: `unreadable ledger: the file ${read.reason}` };
    case 'too-new':
      return {
        kind: 'broken',
        ...base,
        problem: `written by a newer Loop Ledger (schema_version ${read.version}); upgrade to read it`,
      };
  }
}

/** open, paused (closed with `pause`, resumable) or closed. */
export type SessionState = 'open' | 'paused' | 'closed';

export function sessionState(ledger: Pick<Ledger, 'status' | 'final_outcome'>): SessionState {
  if (ledger.status === 'open') return 'open';
  return ledger.final_outcome === 'pause' ? 'paused' : 'closed';
}
