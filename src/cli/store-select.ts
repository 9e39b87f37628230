// Which ledger store a command uses: the files under the root (the default, and nothing here is
// loaded for it), or PostgreSQL when `--store URL` or LOOP_LEDGER_STORE names one. The PostgreSQL
// code and its driver are a bundle of their own (dist/pg.js), required only then.
import { basename, join } from 'node:path';
import type { LedgerStoreOps } from '../app/ledger-store';
import { isPostgresUrl } from '../store/pg/address';
import type { ParsedFlags } from './args';
import { UsageError } from './usage-error';

const DEFAULT_RETRY_MS = 15_000;

/** The selected store, or undefined for the files under `root`. */
export function storeFrom(flags: ParsedFlags, root: string): LedgerStoreOps | undefined {
  const given = typeof flags.store === 'string' ? flags.store : (process.env.LOOP_LEDGER_STORE ?? '');
  const from = typeof flags.store === 'string' ? '--store' : 'LOOP_LEDGER_STORE';
  if (given === '') {
    if (typeof flags.project === 'string')
      throw new UsageError('--project needs a store (--store URL or LOOP_LEDGER_STORE)');
    return undefined;
  }
  // The value is never echoed: it may carry a password.
  if (!isPostgresUrl(given))
    throw new UsageError(`${from}: not a postgres:// or postgresql:// connection string`);
  const project =
    typeof flags.project === 'string' ? flags.project : (process.env.LOOP_LEDGER_PROJECT ?? basename(root));
  if (project === '' || project.length > 200 || hasControl(project))
    throw new UsageError('--project: 1 to 200 characters, no control characters');
  const requestId =
    typeof flags.requestId === 'string' ? flags.requestId : (process.env.LOOP_LEDGER_REQUEST_ID ?? undefined);
  if (requestId !== undefined && !/^[A-Za-z0-9._:-]{1,128}$/.test(requestId))
    throw new UsageError('--request-id: 1 to 128 letters, digits, dots, colons, dashes or underscores');
  const retry = process.env.LOOP_LEDGER_STORE_RETRY_MS;
  const retryMs = retry !== undefined && /^\d{1,7}$/.test(retry) ? Number(retry) : DEFAULT_RETRY_MS;
  // A runtime path on purpose: esbuild must not inline the driver into the CLI's bundles.
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const bundle = require(join(__dirname, 'pg.js')) as typeof import('../app/pg-store');
  return bundle.createPgStore({
    url: given,
    project,
    root,
    requestId: requestId ?? bundle.newRequestId(),
    retryMs,
  });
}

function hasControl(text: string): boolean {
  for (let i = 0; i < text.length; i += 1) {
    const code = text.charCodeAt(i);
    if (code < 0x20 || code === 0x7f) return true;
  }
  return false;
}
