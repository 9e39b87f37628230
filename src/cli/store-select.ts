// Which ledger store a command uses: the files under the root (the default, and nothing here is
// loaded for it), or PostgreSQL when `--store URL` or LOOP_LEDGER_STORE names one. The rule itself
// (and the lazy loading of dist/pg.js) is the app layer's, shared with the extension.
import type { LedgerStoreOps } from '../app/ledger/store';
import { chooseStore, loadPgBundle, StoreChoiceError } from '../app/ledger/store-choice';
import type { ParsedFlags } from './args';
import { UsageError } from './usage-error';

/** The selected store, or undefined for the files under `root`. */
export function storeFrom(flags: ParsedFlags, root: string): LedgerStoreOps | undefined {
  const given = typeof flags.store === 'string' ? flags.store : (process.env.LOOP_LEDGER_STORE ?? '');
  const from = typeof flags.store === 'string' ? '--store' : 'LOOP_LEDGER_STORE';
  if (given === '') {
    if (typeof flags.project === 'string')
      throw new UsageError('--project needs a store (--store URL or LOOP_LEDGER_STORE)');
    return undefined;
  }
  const retry = process.env.LOOP_LEDGER_STORE_RETRY_MS;
  let selection;
  try {
    selection = chooseStore({
      url: given,
      from,
      project: typeof flags.project === 'string' ? flags.project : process.env.LOOP_LEDGER_PROJECT,
      root,
      requestId: typeof flags.requestId === 'string' ? flags.requestId : process.env.LOOP_LEDGER_REQUEST_ID,
      retryMs: retry !== undefined && /^\d{1,7}$/.test(retry) ? Number(retry) : undefined,
    });
  } catch (error) {
    if (error instanceof StoreChoiceError) throw new UsageError(error.message);
    throw error;
  }
  const bundle = loadPgBundle();
  return bundle.createPgStore({ ...selection, requestId: selection.requestId ?? bundle.newRequestId() });
}
