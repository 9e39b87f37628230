// What every command receives besides its flags.
import { resolve } from 'node:path';
import type { LedgerStoreOps } from '../../app/ledger/store';
import type { ParsedFlags } from '../args';
import { storeFrom } from '../store-select';

export interface CommandContext {
  root: string;
  json: boolean;
  now: Date;
  /** A PostgreSQL store when one is selected; undefined: the files under `root`. */
  store?: LedgerStoreOps;
}

export function contextFrom(flags: ParsedFlags): CommandContext {
  const root = typeof flags.root === 'string' && flags.root !== '' ? resolve(flags.root) : process.cwd();
  const store = storeFrom(flags, root);
  return { root, json: flags.json === true, now: new Date(), ...(store ? { store } : {}) };
}

export const str = (v: ParsedFlags[string]): string | null => (typeof v === 'string' ? v : null);
export const list = (v: ParsedFlags[string]): string[] => (Array.isArray(v) ? v : []);
