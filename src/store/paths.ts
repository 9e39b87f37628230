// Where ledgers live. Every path built from a session id is checked twice: the id itself
// (session-id.ts) and the resolved result, so a future change to the id rule cannot silently
// let a path escape its folder.
import { basename, dirname, join, resolve } from 'node:path';
import { InvalidSessionIdError, sessionIdProblem } from './session-id';

/** `<root>/.loop/ledgers`, absolute. */
export function ledgerDir(root: string): string {
  return resolve(root, '.loop', 'ledgers');
}

/** The folder the original work-loop engine wrote to, read by `list` and the extension. */
export function legacyLedgerDir(root: string): string {
  return resolve(root, '.claude', '.runtime', 'work-loop');
}

/** `<root>/.loop/ledgers/<session>.json`; throws InvalidSessionIdError for a bad id. */
export function ledgerPath(root: string, session: string): string {
  return fileInside(ledgerDir(root), session);
}

/** `<root>/.claude/.runtime/work-loop/<session>.json`; throws InvalidSessionIdError for a bad id. */
export function legacyLedgerPath(root: string, session: string): string {
  return fileInside(legacyLedgerDir(root), session);
}

function fileInside(dir: string, session: string): string {
  const problem = sessionIdProblem(session);
  if (problem !== null) throw new InvalidSessionIdError(problem);
  const name = `${session}.json`;
  const path = join(dir, name);
  if (dirname(path) !== dir || basename(path) !== name) {
    throw new InvalidSessionIdError(`session id ${JSON.stringify(session)} would leave ${dir}`);
  }
  return path;
}
