// Every session in a workspace, for `list` and the extension's tree. A file that cannot be
// read is listed with its problem instead of hiding it or failing the whole listing.
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { spendOf, type Spend } from '../engine/spend';
import type { Outcome } from '../engine/types';
import { readLedgerFile, type LedgerRead } from './ledger-file';
import { ledgerDir, legacyLedgerDir } from './paths';
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

/** Sessions from .loop/ledgers and the original engine's folder, sorted by id; .loop wins a clash. */
export function listSessions(root: string): SessionSummary[] {
  const found = new Map<string, SessionSummary>();
  for (const [dir, legacy] of [
    [ledgerDir(root), false],
    [legacyLedgerDir(root), true],
  ] as const) {
    for (const session of sessionFilesIn(dir)) {
      if (found.has(session)) continue;
      const path = join(dir, `${session}.json`);
      found.set(
        session,
        isWindowsDeviceId(session) ? deviceNamed(session, path, legacy) : summarize(session, path, legacy),
      );
    }
  }
  return [...found.keys()].sort().map((session) => found.get(session) as SessionSummary);
}

/**
 * Session ids with a `<id>.json` file in `dir`. Lock files (`.json.lock`), kept corrupt copies
 * (`.json.corrupt-…`) and temporary files (hidden, `.tmp`) do not end in `.json`; anything else
 * whose stem is not a session id cannot have been written by us and is skipped.
 */
function sessionFilesIn(dir: string): string[] {
  let entries;
  try {
    entries = readdirSync(dir, { withFileTypes: true });
  } catch {
    return []; // no such folder: no sessions there
  }
  return entries.flatMap((entry) => {
    const session = entry.isDirectory() ? null : sessionOfLedgerFileName(entry.name);
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

function summarize(session: string, path: string, legacy: boolean): SessionSummary {
  return summaryOfRead(session, path, legacy, readLedgerFile(path));
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
