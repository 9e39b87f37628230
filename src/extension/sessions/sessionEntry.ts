// What the tree knows about one session: its ledger read through the store, or why it could not
// be read. No vscode here: the same code feeds the tree, the pickers, the status bar and bench.
import { status, type StatusPayload } from '../../engine/status';
import type { Ledger } from '../../engine/types';
import { listSessions, locateLedger, readLedgerFile, sessionIdProblem } from '../../store';

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
}

export interface BrokenSession extends SessionKey {
  readonly kind: 'broken';
  readonly path: string;
  readonly legacy: boolean;
  readonly problem: string;
}

export type SessionEntry = ReadableSession | BrokenSession;

/** Every session under `root`, in the store's order (by id; .loop wins over the original folder). */
export function readSessions(root: string): SessionEntry[] {
  return listSessions(root).map((summary) =>
    readSessionAt(root, summary.session, summary.path, summary.legacy),
  );
}

/** One session as it is now on disk, or undefined when it has no ledger (any more). */
export function readSession(root: string, session: string): SessionEntry | undefined {
  if (sessionIdProblem(session) !== null) return undefined;
  const location = locateLedger(root, session);
  const entry = readSessionAt(root, session, location.readPath, location.legacy);
  return entry.kind === 'broken' && entry.problem === ABSENT ? undefined : entry;
}

const ABSENT = 'no ledger file';

function readSessionAt(root: string, session: string, path: string, legacy: boolean): SessionEntry {
  const read = readLedgerFile(path);
  const base = { root, session, path, legacy };
  switch (read.kind) {
    case 'ok':
      try {
        return { kind: 'ledger', ...base, ledger: read.ledger, status: status(read.ledger).payload };
      } catch (error) {
        // JSON that has the four required keys but nonsense inside (e.g. a record that is a number).
        return { kind: 'broken', ...base, problem: `unreadable ledger: ${(error as Error).message}` };
      }
    case 'absent':
      return { kind: 'broken', ...base, problem: ABSENT };
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
