// Every session in a workspace, for `list` and the extension's tree. A file that cannot be
// read is listed with its problem instead of hiding it or failing the whole listing.
import { join } from 'node:path';
import { spendOf, type Spend } from '../engine/spend';
import type { Outcome } from '../engine/types';
import type { LedgerRead } from './ledger-verdict';
import { ledgerDir, legacyLedgerDir } from './paths';
import { ledgerFileSteps, type FolderEntry, type ReadSteps } from './read-steps';
import { runReadSync } from './read-sync';
import { isWindowsDeviceId, sessionIdProblem } from './session-id';

export interface SessionSummary {
  session: string;
  path: string;
  legacy: boolean;
  /** Null when the file could not be read (see `error`). */
  status: 'open' | 'closed' | null;
  final_outcome: Outcome | null;
  /** 1 for an original-format ledger from before epochs; null when unreadable. */
  epoch: number | null;
  /** The number of iteration records; null when unreadable. */
  iterations: number | null;
  last_outcome: Outcome | null;
  /** What the session's iterations reported of cost and tokens; null when unreadable. */
  spend: Spend | null;
  /** Why the file could not be read, when it could not. */
  error?: string;
}

export interface LedgerFileRef {
  session: string;
  path: string;
  /** In the original engine's folder (.claude/.runtime/work-loop/). */
  legacy: boolean;
}

/** Sessions from .loop/ledgers and the original engine's folder, sorted by id; .loop wins a clash. */
export function listSessions(root: string): SessionSummary[] {
  return runReadSync(listSessionsSteps(root));
}

/**
 * The listing's rule (listSessions, and listSessionsAsync for the extension): every ledger file,
 * each summarised from its read, a device-named file listed and never opened.
 */
export function* listSessionsSteps(root: string): ReadSteps<SessionSummary[]> {
  const summaries: SessionSummary[] = [];
  for (const { session, path, legacy } of yield* ledgerFilesSteps(root)) {
    summaries.push(
      isWindowsDeviceId(session)
        ? deviceNamed(session, path, legacy)
        : summaryOfRead(session, path, legacy, (yield* ledgerFileSteps(path)).read),
    );
  }
  return summaries;
}

/**
 * The ledger files under `root`, sorted by session id; a session in .loop/ledgers wins over the
 * original engine's file of the same id (as locateLedger decides). Nothing is read.
 */
export function* ledgerFilesSteps(root: string): ReadSteps<LedgerFileRef[]> {
  const found = new Map<string, LedgerFileRef>();
  for (const [dir, legacy] of [
    [ledgerDir(root), false],
    [legacyLedgerDir(root), true],
  ] as const) {
    const entries = (yield { kind: 'entries', dir }) as FolderEntry[];
    for (const session of sessionFilesIn(entries)) {
      if (!found.has(session)) found.set(session, { session, path: join(dir, `${session}.json`), legacy });
    }
  }
  return [...found.keys()].sort().map((session) => found.get(session) as LedgerFileRef);
}

/**
 * Session ids with a `<id>.json` file among a folder's entries. Lock files (`.json.lock`), kept
 * corrupt copies (`.json.corrupt-…`) and temporary files (hidden, `.tmp`) do not end in `.json`;
 * anything else whose stem is not a session id cannot have been written by us and is skipped.
 */
function sessionFilesIn(entries: readonly FolderEntry[]): string[] {
  return entries.flatMap((entry) => {
    const session = entry.directory ? null : sessionOfLedgerFileName(entry.name);
    return session === null ? [] : [session];
  });
}

/**
 * The session a ledger folder's entry named `name` belongs to, or null when it is no ledger:
 * `<id>.json` with a valid id, or an id of the right characters that names a Windows device
 * (listed as unreadable, never opened). The one filter `list` and the extension's tree share.
 */
export function sessionOfLedgerFileName(name: string): string | null {
  if (!name.endsWith('.json')) return null;
  const session = name.slice(0, -'.json'.length);
  return sessionIdProblem(session) === null || isWindowsDeviceId(session) ? session : null;
}

/**
 * A ledger named after a Windows device (`con.json`, written by the original engine or on another
 * system) is listed, not hidden, and not opened: no command can address it by that id.
 */
export function deviceNamed(session: string, path: string, legacy: boolean): SessionSummary {
  return { ...unknownSummary(session, path, legacy), error: deviceNameProblem(session) };
}

/** Why a device-named ledger is not read (the session-id refusal, which names the device). */
export function deviceNameProblem(session: string): string {
  return sessionIdProblem(session) ?? '';
}

function unknownSummary(session: string, path: string, legacy: boolean): SessionSummary {
  return {
    session,
    path,
    legacy,
    status: null,
    final_outcome: null,
    epoch: null,
    iterations: null,
    last_outcome: null,
    spend: null,
  };
}

/** A listing's line for a ledger already read: the one rule `list` and the async listing share. */
export function summaryOfRead(
  session: string,
  path: string,
  legacy: boolean,
  read: LedgerRead,
): SessionSummary {
  const unknown = unknownSummary(session, path, legacy);
  switch (read.kind) {
    case 'absent':
      return { ...unknown, error: 'disappeared while listing' };
    case 'corrupt':
      return { ...unknown, error: `unreadable ledger: ${read.reason}` };
    case 'too-new':
      return { ...unknown, error: `written by a newer Loop Ledger (schema_version ${read.version})` };
    case 'ok': {
      const { ledger } = read;
      const last = ledger.iterations[ledger.iterations.length - 1];
      return {
        session,
        path,
        legacy,
        status: ledger.status,
        final_outcome: ledger.final_outcome ?? null,
        epoch: ledger.epoch ?? 1,
        iterations: ledger.iterations.length,
        last_outcome: last?.outcome ?? null,
        spend: spendOf(ledger.iterations),
      };
    }
  }
}
