// What one `wo run` needs to know, shared by the phases and the queue.
import { join } from 'node:path';
import type { WoLedger } from './ledger';

export interface RunOptions {
  /** The task folder; its work orders live in `<task>/work-orders/`. */
  task: string;
  /** The code worktree the builds commit into. */
  worktree: string;
  /** Where the ledgers live (`<root>/.loop/ledgers`). */
  root: string;
  builder: string;
  reviewer: string;
  critic?: string;
  criticsExpected: number;
  cap: string;
  inPlace: boolean;
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
