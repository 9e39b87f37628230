// What every tool handler receives: the root it is confined to, and the server's own state.
import type { BriefStore } from './brief-store';

export interface ServerContext {
  /** The root as given (absolute); every path argument is resolved against it. */
  root: string;
  briefs: BriefStore;
  /** Clock for the writes (tests cannot stop it; it is read once per call). */
  now(): Date;
}
