// The server on a PostgreSQL store (`loop-ledger mcp --store URL`, or LOOP_LEDGER_STORE): one
// connection for the server's life, each tool call sent with a request id of its own (a write
// the connection lost after its commit is reported as done when sent again, and two calls are
// never taken for one), and a LISTEN follower for resource subscriptions, started on the first.
// The PostgreSQL bundle (dist/pg.js, with the driver) is loaded only here.
import { randomUUID } from 'node:crypto';
import type { StoreSelection } from '../app/ledger/store';
import { loadPgBundle } from '../app/ledger/store-choice';
import type { ContextStore } from './context';

export interface ServedStore extends ContextStore {
  /** From now on, calls `changed` with the sessions another process (or this one) wrote (ended by end). */
  follow(changed: (sessions: string[]) => void): void;
  end(): Promise<void>;
}

export function serveStore(selection: Omit<StoreSelection, 'requestId'>): ServedStore {
  const bundle = loadPgBundle();
  const base = bundle.createPgStore({ ...selection, requestId: randomUUID() });
  let live: ReturnType<typeof bundle.openLiveStore> | undefined;
  return {
    label: `${base.label} (project ${JSON.stringify(selection.project)})`,
    run: (op) => op(base.withRequestId(randomUUID())),
    follow(changed) {
      if (live === undefined) {
        live = bundle.openLiveStore({
          url: selection.url,
          project: selection.project,
          retryMs: selection.retryMs,
        });
        live.follower.start();
      }
      live.follower.onChanged(changed);
    },
    async end() {
      await Promise.all([base.end(), live?.close()]);
    },
  };
}
