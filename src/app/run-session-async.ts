// The run lookup of run-session.ts (which run is the newest of a session, whether it finished)
// driven with promises, for the extension host: the rule is the generator there, only the reads
// differ. JSON files go through the store's reader (size cap, no FIFO waited on — a blocked open
// would hold one of libuv's threads for good).
import { readdir, stat } from 'node:fs/promises';
import { LEDGER_SIZE_LIMIT } from '../store/limits';
import { readTextFileAsync } from '../store/read-async';
import {
  unfinishedRunLookup,
  type RunLookup,
  type RunLookupAnswer,
  type RunLookupRead,
  type UnfinishedRun,
} from './run-session';

async function answer(read: RunLookupRead): Promise<RunLookupAnswer> {
  switch (read.kind) {
    case 'names':
      return readdir(read.dir).catch(() => [] as string[]);
    case 'json': {
      const text = await readTextFileAsync(read.path, LEDGER_SIZE_LIMIT);
      if (text.kind !== 'ok') return undefined;
      try {
        return JSON.parse(text.text) as unknown;
      } catch {
        return undefined;
      }
    }
    case 'exists':
      return stat(read.path).then(
        () => true,
        () => false,
      );
  }
}

async function runAsync<T>(lookup: RunLookup<T>): Promise<T> {
  let step = lookup.next();
  while (!step.done) step = lookup.next(await answer(step.value));
  return step.value;
}

/** findUnfinishedRun without blocking: the same rule, read with promises. */
export function findUnfinishedRunAsync(
  root: string,
  runRootRel: string,
  session: string,
): Promise<UnfinishedRun | null> {
  return runAsync(unfinishedRunLookup(root, runRootRel, session));
}
