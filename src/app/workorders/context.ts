// What one `wo run` needs to know, shared by the phases and the queue.
import { join } from 'node:path';
import type { CliProgram } from '../../drivers/workorders/harness-builder';
import type { LedgerStoreOps } from '../ledger/store';
import type { WoLedger } from './ledger';

export interface RunOptions {
  /** A PostgreSQL store the work orders' ledgers go to; undefined: the files under `root`. */
  store?: LedgerStoreOps;
  /** Prefixes the request id of each store write (one process's writes never share one). */
  requestBase?: string;
  /** The task folder; its work orders live in `<task>/work-orders/`. */
  task: string;
  /** The code worktree the builds commit into. */
  worktree: string;
  /** Where the ledgers live (`<root>/.loop/ledgers`). */
  root: string;
  /**
   * The builder: an agent command (`--builder`), or — by default — a `loop-ledger run` harness per
   * attempt with this agent config (`--builder-config`, absolute).
   */
  builder: { command: string } | { agentConfig: string };
  /** This program (`node dist/cli.js`): runs the harness builds and the exit gates' kernels. */
  cli: CliProgram;
  /** The reviewer command; unset = the harness receipt is the review (default builder only). */
  reviewer?: string;
  critic?: string;
  criticsExpected: number;
  cap: string;
  inPlace: boolean;
  /** false (`--no-checkpoint`): phase iterations take no workspace checkpoint. */
  checkpoint?: boolean;
  /** `--parallel --max N`: rounds of at most N work orders, each in its own worktree and branch. */
  parallelMax?: number;
  /** Per agent run. */
  timeoutMs: number;
  signal?: AbortSignal;
  /** Status lines (the kernels' stderr lines, forwarded). */
  log: (line: string) => void;
  /** Progress for a UI: which work order and phase is running. */
  progress?: (event: { wo: string; phase: string }) => void;
  env?: NodeJS.ProcessEnv;
}

export interface RunContext extends RunOptions {
  dir: string;
  ledger: WoLedger;
  now: () => string;
}

export function workOrdersDir(task: string): string {
  return join(task, 'work-orders');
}
