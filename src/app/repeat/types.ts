// The `repeat` operation's inputs and outputs, shared by the CLI and the extension.
import type { ScopeChange } from '../../engine/repeat/answer';
import type { SessionLedgers } from '../ledger/session-ledgers';
import type { ConvergenceSummary } from '../../engine/repeat/state';
import type {
  Classification,
  ExitReason,
  FollowUpResult,
  PendingQuestion,
  Recipe,
} from '../../engine/repeat/state';

export type { FollowUpResult } from '../../engine/repeat/state';
import type { Finding } from '../../engine/types';
import type { ExitCode } from '../../engine/refusal';

/** Exit codes beyond the work-loop table: partial and indeterminate are never 0. */
export const REPEAT_EXIT = {
  clean: 0,
  partial: 10,
  paused: 11,
  followUpFailed: 12,
} as const;

/** What a repeat exits with: the shared table's refusals, or its own codes above. */
export type RepeatExitCode = ExitCode | (typeof REPEAT_EXIT)[keyof typeof REPEAT_EXIT];

export interface StartRequest {
  inner: string;
  followUp: string | null;
  max: number | null;
  recipe?: Recipe;
  scope: string[];
  exclude: string[];
  summaryFile: string | null;
}

/** How a shell asks a person (a TTY prompt, a quick pick); absent = nobody can be asked. */
export interface Asker {
  /** The chosen option's text as typed or picked; undefined = dismissed (the loop stays paused). */
  ask(question: PendingQuestion): Promise<string | undefined>;
  /** change-scope: the new target; undefined = dismissed. */
  askScope(): Promise<ScopeChange | undefined>;
  /** The ambiguous recipe: undefined = dismissed. */
  pickRecipe(why: string): Promise<Recipe | undefined>;
  /** A read-back or a note the person should see before the next question. */
  tell(text: string): void;
}

export interface ProgressEvent {
  iteration: number;
  classification: Classification;
  changeMetric: string;
  tag: string;
}

export interface RepeatRequest {
  root: string;
  session: string;
  /** Where the session's ledger lives (default: the files under the root). */
  ledgers?: SessionLedgers;
  /** A new repeat; absent = continue the session's repeat (after a pause or a crash). */
  start?: StartRequest;
  answer?: string;
  change?: ScopeChange;
  asker?: Asker;
  timeoutMs: number;
  /** false: no workspace checkpoint per recorded run (one is taken by default). */
  checkpoint?: boolean;
  /** The checkpoints' size cap in MB (default: LOOP_LEDGER_CHECKPOINT_MAX_MB, else 10). */
  checkpointMaxFileMB?: number;
  /** Cancels now: a running step is stopped (its group killed) and not recorded. */
  signal?: AbortSignal;
  /** Stops between iterations: the running step finishes and is recorded first. */
  stop?: AbortSignal;
  onProgress?: (event: ProgressEvent) => void;
  now?: () => Date;
}

export interface RepeatReport {
  session: string;
  status: 'running' | 'paused' | 'finished';
  exit_reason: ExitReason | null;
  iterations: number;
  question: PendingQuestion | null;
  summary: ConvergenceSummary;
  follow_up: FollowUpResult | null;
  state_file: string;
  notes: string[];
}

export interface RepeatOutcome {
  exitCode: RepeatExitCode;
  payload?: RepeatReport;
  findings: Finding[];
}
