// The one rule for choosing a PostgreSQL ledger store, shared by the CLI (`--store`,
// LOOP_LEDGER_STORE) and the VS Code extension (`loopLedger.store`): what a connection string must
// look like, what a project name may be (default: the workspace root folder's name), and how the
// PostgreSQL code is loaded — from its own bundle (dist/pg.js), only when a store is chosen, so the
// file store's start-up never loads the driver.
import { existsSync } from 'node:fs';
import { basename, join } from 'node:path';
import { isPostgresUrl } from '../../store/pg/address';
import type { StoreSelection } from './store';

export const DEFAULT_STORE_RETRY_MS = 15_000;

/** A store choice that cannot be used; the message never repeats the connection string. */
export class StoreChoiceError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'StoreChoiceError';
  }
}

export interface StoreChoiceInput {
  url: string;
  /** Where the URL came from, to name in a refusal (`--store`, `loopLedger.store`). */
  from: string;
  /** Undefined: the root folder's name. */
  project?: string;
  /** The flag or setting the project came from, to name in a refusal. */
  projectFrom?: string;
  root: string;
  requestId?: string;
  retryMs?: number;
}

/** The checked selection (a request id is added by the caller that knows what one write is). */
export function chooseStore(
  input: StoreChoiceInput,
): Omit<StoreSelection, 'requestId'> & { requestId?: string } {
  // The value is never echoed: it may carry a password.
  if (!isPostgresUrl(input.url))
    throw new StoreChoiceError(`${input.from}: not a postgres:// or postgresql:// connection string`);
  // The driver parses it with URL later; a string URL refuses (a broken host, a port out of
  // range) is the caller's mistake, said here, not an internal error at connect time.
  if (!parses(input.url))
    throw new StoreChoiceError(`${input.from}: not a valid connection string (host, port or characters)`);
  const project = input.project ?? basename(input.root);
  if (project === '' || project.length > 200 || hasControl(project))
    throw new StoreChoiceError(
      `${input.projectFrom ?? '--project'}: 1 to 200 characters, no control characters`,
    );
  const requestId = input.requestId;
  if (requestId !== undefined && !/^[A-Za-z0-9._:-]{1,128}$/.test(requestId))
    throw new StoreChoiceError('--request-id: 1 to 128 letters, digits, dots, colons, dashes or underscores');
  return {
    url: input.url,
    project,
    root: input.root,
    requestId,
    retryMs: input.retryMs ?? DEFAULT_STORE_RETRY_MS,
  };
}

/** True when the connection string carries a password (the extension refuses one from settings). */
export function urlHasPassword(url: string): boolean {
  try {
    const parsed = new URL(url);
    return parsed.password !== '' || parsed.searchParams.has('password');
  } catch {
    return /^[a-z]+:\/\/[^:@/]*:[^@]*@/i.test(url);
  }
}

/** `url` with `password` put in (kept in memory only: settings never hold it). */
export function withPassword(url: string, password: string | undefined): string {
  if (password === undefined || password === '') return url;
  const parsed = new URL(url);
  if (parsed.username === '') return url; // no user to give it to: the driver's default is used
  parsed.password = encodeURIComponent(password);
  return parsed.toString();
}

/** The PostgreSQL bundle, loaded on first use. */
export function loadPgBundle(): typeof import('./pg-store') {
  // A runtime path on purpose: esbuild must not inline the driver into the caller's bundle.
  // Beside the bundle, or one folder up from the bundles in dist/wo/ (`wo run`).
  const beside = join(__dirname, 'pg.js');
  const path = existsSync(beside) ? beside : join(__dirname, '..', 'pg.js');
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  return require(path) as typeof import('./pg-store');
}

function parses(url: string): boolean {
  try {
    new URL(url);
    return true;
  } catch {
    return false;
  }
}

function hasControl(text: string): boolean {
  for (let i = 0; i < text.length; i += 1) {
    const code = text.charCodeAt(i);
    if (code < 0x20 || code === 0x7f) return true;
  }
  return false;
}
