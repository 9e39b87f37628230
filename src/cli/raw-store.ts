// The store a drop-in command (`run`, `repeat`, `wo run`) records its ledgers in. Their grammars
// are their originals', each with `--store URL` and `--project NAME` added (parsed by the command's
// own tokenizer); the choice is every other command's (store-select.ts): the flag over
// LOOP_LEDGER_STORE / LOOP_LEDGER_PROJECT, with the root the command itself resolved.
// Undefined: the ledger files under the root.
import { nodeCrypto } from '../engine/node-crypto';
import type { LedgerStoreOps } from '../app/ledger/store';
import { storeFrom } from './store-select';

/** What a drop-in command's own parser read of the two store flags (undefined: not given). */
export interface RawStoreFlags {
  store?: string;
  project?: string;
}

export function rawStore(root: string, flags: RawStoreFlags = {}): LedgerStoreOps | undefined {
  return storeFrom({ store: flags.store, project: flags.project }, root);
}

/**
 * The prefix of this process's store writes' request ids: fresh per process, since a driver's
 * writes are not one repeatable command (a retry after a lost connection reuses the write's id).
 */
export function rawRequestBase(): string {
  return nodeCrypto().randomUUID(); // `resume` reaches this module, and mostly uses no store
}

/**
 * Hands the store flags down to this process's children (the agents, checks and nested
 * `loop-ledger run`s a driver starts): the same store as when it came from the environment. Called
 * once the flags have been checked (by rawStore).
 */
export function handDownStoreFlags(flags: RawStoreFlags): void {
  if (flags.store !== undefined) process.env.LOOP_LEDGER_STORE = flags.store;
  if (flags.project !== undefined) process.env.LOOP_LEDGER_PROJECT = flags.project;
}
