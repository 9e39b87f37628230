// The run lookup of session.ts (which run is the newest of a session, whether it finished)
// driven with promises, for the extension host: the rule is the steps there, only the driver
// differs (store/read-async.ts).
import { runReadAsync } from '../../store/read-async';
import { unfinishedRunLookup, type UnfinishedRun } from './session';

/** findUnfinishedRun without blocking: the same rule, read with promises. */
export function findUnfinishedRunAsync(
  root: string,
  runRootRel: string,
  session: string,
): Promise<UnfinishedRun | null> {
  return runReadAsync(unfinishedRunLookup(root, runRootRel, session));
}
