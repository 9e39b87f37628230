// Which session and epoch a run records into, and whether this is a resume (README "loop-ledger
// run → Resume"): a run is one epoch; with --session, an unfinished run of that session (no
// receipt) continues at its first unrecorded attempt instead of starting over.
import { join } from 'node:path';
import { DEFAULT_STALL_THRESHOLD, epochRecords } from '../../engine/ledger-view';
import { generatedContract, recordedAttempts, type RunRequestFacts } from '../../engine/run/ledger-mapping';
import { open } from '../../engine/open';
import { isRefusal } from '../../engine/refusal';
import { resume } from '../../engine/resume';
import type { Ledger } from '../../engine/types';
import { EXIT } from '../../engine/refusal';
import type { SessionLedgers } from '../ledger/session-ledgers';
import { Refused } from '../outcome';
import { programResolver } from '../contract/resolve-program';
import { jsonFileSteps, type FolderEntry, type ReadSteps } from '../../store/read-steps';
import { runReadSync } from '../../store/read-sync';

/** The sidecar tying a run directory to its session (not part of the original layout). */
export const RUN_LEDGER_FILE = 'run-ledger.json';

export interface RunLedgerLink {
  session: string;
  epoch: number;
  run_id: string;
}

export interface UnfinishedRun {
  runId: string;
  /** Repo-relative. */
  runDirRel: string;
  request: {
    objective: string;
    allowed_globs: string[];
    checks: string[];
    max_attempts: number;
    check_timeout: number;
  };
}

/**
 * The run lookup is written once as store read steps (store/read-steps.ts) and driven either
 * synchronously (the CLI, here) or asynchronously (the extension host, session-async.ts), so
 * the two never disagree about which run is the newest or unfinished. Run files are read as a
 * ledger is (regular files only, capped, no FIFO waited on).
 */
export type RunLookup<T> = ReadSteps<T>;

/** The newest run directory under `runRootRel` linked to `session`, or null. */
export interface LinkedRun {
  runId: string;
  /** Repo-relative. */
  runDirRel: string;
  /** Absolute. */
  runDir: string;
  link: RunLedgerLink;
  finished: boolean;
}

export function* newestLinkedRunLookup(
  root: string,
  runRootRel: string,
  session: string,
): RunLookup<LinkedRun | null> {
  const dir = join(root, runRootRel);
  const entries = (yield { kind: 'entries', dir }) as FolderEntry[];
  const names = entries
    .map((entry) => entry.name)
    .sort()
    .reverse();
  for (const name of names) {
    const link = (yield* jsonFileSteps(join(dir, name, RUN_LEDGER_FILE))) as RunLedgerLink | undefined;
    if (!link || link.session !== session) continue;
    return {
      runId: name,
      runDirRel: `${runRootRel.replace(/\/+$/, '')}/${name}`,
      runDir: join(dir, name),
      link,
      finished: (yield { kind: 'exists', path: join(dir, name, 'final-receipt.json') }) as boolean,
    };
  }
  return null;
}

export function newestLinkedRun(root: string, runRootRel: string, session: string): LinkedRun | null {
  return runReadSync(newestLinkedRunLookup(root, runRootRel, session));
}

/** The newest run under `runRootRel` linked to `session`, when it has no receipt. */
export function* unfinishedRunLookup(
  root: string,
  runRootRel: string,
  session: string,
): RunLookup<UnfinishedRun | null> {
  const newest = yield* newestLinkedRunLookup(root, runRootRel, session);
  if (!newest || newest.finished) return null;
  const request = (yield* jsonFileSteps(join(newest.runDir, 'request.json'))) as
    UnfinishedRun['request'] | undefined;
  if (!request) return null;
  return { runId: newest.runId, runDirRel: newest.runDirRel, request };
}

export function findUnfinishedRun(root: string, runRootRel: string, session: string): UnfinishedRun | null {
  return runReadSync(unfinishedRunLookup(root, runRootRel, session));
}

/**
 * Opens the run's epoch: a new ledger under a generated contract, or a new epoch of a closed one
 * under its own contract, or the open epoch a person opened for it (no iterations yet). Returns
 * the epoch. Refusals are preflight: exit 2 for the ledger or its contract, 3 while another
 * writer holds the ledger, 74 when the system refuses.
 */
export function openRunEpoch(
  ledgers: SessionLedgers,
  root: string,
  session: string,
  facts: RunRequestFacts,
  now: Date,
): Promise<number> {
  return ledgers.update(session, (existing: Ledger | null) => {
    if (existing && existing.status === 'open') {
      const records = epochRecords(existing);
      if (records.length > 0)
        throw new Refused(EXIT.usage, [
          `${session}: open with ${records.length} iteration(s) not from an unfinished run; close it first (loop-ledger close --session ${session} --outcome stop)`,
        ]);
      checkLimit(session, existing, facts.maxAttempts);
      return { result: existing.epoch ?? 1 };
    }
    if (existing) checkLimit(session, existing, facts.maxAttempts);
    const contract = existing ? existing.contract : generatedContract(facts);
    const result = open({
      session,
      existing,
      contract,
      stallThreshold: existing?.stall_threshold ?? DEFAULT_STALL_THRESHOLD,
      force: false,
      baselineEvidence: [],
      now,
      resolveProgram: programResolver(root),
    });
    if (isRefusal(result))
      throw new Refused(
        EXIT.usage,
        result.findings.map((f) => `${session}: contract ${f.message}`),
      );
    return { write: result.ledger, result: result.payload.epoch };
  });
}

/** A contract that allows fewer iterations than attempts would stop the ledger mid-run. */
function checkLimit(session: string, ledger: Ledger, maxAttempts: number): void {
  const limit = ledger.contract.iteration_limit;
  if (typeof limit === 'number' && limit < maxAttempts)
    throw new Refused(EXIT.usage, [
      `${session}: the contract's iteration_limit ${limit} is below --max-attempts ${maxAttempts}; lower --max-attempts or use another session`,
    ]);
}

/** Re-enters a paused epoch for a resumed run and returns the attempts of the run already recorded. */
export function reenterRunEpoch(ledgers: SessionLedgers, session: string, runId: string): Promise<number[]> {
  return ledgers.update(session, (ledger) => {
    if (ledger === null)
      throw new Refused(EXIT.usage, [`${session}: no ledger for run ${runId} (open one first)`]);
    let next = ledger;
    if (ledger.status === 'closed') {
      const resumed = resume(ledger);
      if (isRefusal(resumed))
        throw new Refused(EXIT.wrongState, [
          `${session}: run ${runId} has no receipt but the ledger is closed (${ledger.final_outcome}); only a paused run resumes`,
        ]);
      next = resumed.ledger;
    }
    const recorded = recordedAttempts(runId, next.completed_actions);
    return { write: next === ledger ? undefined : next, result: recorded };
  });
}
