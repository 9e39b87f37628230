// The environment of a `loop-ledger` child process the window starts (Run Queue's `wo run`, the
// checkpoint commands): the extension host's, run as plain Node, using the ledgers the window
// uses. On a store window that is the store (its password from secret storage, in this child's
// environment only); on the files, a store named in the host's own environment is not inherited,
// so the child never writes where the window does not read.
import type { StoreWrites } from '../sessions/sessionSource';

export async function cliChildEnv(store: StoreWrites | undefined): Promise<NodeJS.ProcessEnv> {
  const env: NodeJS.ProcessEnv = { ...process.env, ELECTRON_RUN_AS_NODE: '1' };
  delete env.NODE_OPTIONS;
  delete env.LOOP_LEDGER_STORE;
  delete env.LOOP_LEDGER_PROJECT;
  return store ? { ...env, ...(await store.childEnv()) } : env;
}
