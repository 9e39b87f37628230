// What a harness run is given and what it hands back: the request, where it starts, the recorder
// that puts it on the ledger, the progress it reports and the result it ends with.
import type { AgentConfig } from '../../engine/run/agent-config';
import type { AttemptFacts } from '../../engine/run/ledger-mapping';
import type { CheckRecord, FinalReceipt } from '../../engine/run/receipt';
import type { RoleRequest } from '../../engine/run/role-io';
import type { ReviewerSummary, Terminal } from '../../engine/run/stop-rules';
import type { SpawnContext } from './agents';
import type { RunDirectory } from './artifacts';

export interface HarnessRequest extends RoleRequest {
  maxAttempts: number;
  checkTimeout: number;
}

export type Phase =
  | { kind: 'explorer' }
  | { kind: 'coder'; attempt: number }
  | { kind: 'check'; attempt: number; index: number; count: number; command: string }
  | { kind: 'code-reviewer'; attempt: number }
  | { kind: 'finishing' };

export interface Progress {
  phase: Phase;
  maxAttempts: number;
  /** Epoch milliseconds when the phase began. */
  startedAt: number;
  /** The phase's own timeout. */
  timeoutSeconds: number;
}

/**
 * What a finished attempt hands the recorder: the engine's attempt facts less what only the
 * recorder knows (the run's ledger place and the session's rubric), so the two cannot drift.
 */
export type AttemptOutcome = Omit<AttemptFacts, 'runId' | 'runDir' | 'measureFailingChecks'>;

export interface BriefMaterial {
  diff: string;
  verification: string;
  changeScope: string;
}

export interface HarnessRecorder {
  /** After every agent and check: a description of an edit to the ledger that the harness did not make. */
  ledgerEdited(): Promise<string | null>;
  /** The critic packet for the reviewer's exact diff (written beside the attempt), or null when it cannot be built. */
  prepareBrief(material: BriefMaterial): Promise<{ briefId: string; packet: unknown } | null>;
  /** A repair attempt (the run goes on). */
  recordAttempt(outcome: AttemptOutcome): Promise<void>;
  /**
   * The run's end, before its receipt, with the digest of the saved ending file (kept in the same
   * ledger write: it is what makes the saved ending trustworthy after a crash). Returns what could
   * not be recorded of a `close`, in words; any other failure throws and no receipt is written.
   */
  recordEnding(ending: RunEnding, endingDigest: string): Promise<string[]>;
  recordCancel(attempt: number, phase: string, markerPath: string): Promise<void>;
}

/**
 * What the ledger gets when a run ends: the terminal attempt as an iteration, the explorer's
 * failure as one `escalate` record, or — when the ledger is no longer the harness's to record
 * into (an agent edited it) or the run's own files could not be written — a `close` of the epoch
 * consistent with the receipt's stop reason.
 */
export type RunEnding =
  | { kind: 'attempt'; outcome: AttemptOutcome }
  | { kind: 'explorer-failure'; terminal: Terminal; receiptPath: string; evidencePaths: string[] }
  | { kind: 'close'; terminal: Terminal; receiptPath: string };

/** Where to start: a fresh run starts at attempt 1 with the explorer. */
export interface StartPoint {
  attempt: number;
  /** The explorer's result when it already ran and was recorded; `undefined` runs the explorer. */
  explorer?: { result: unknown };
  previousFindings: string[];
  lastReviewer: ReviewerSummary;
  lastChecks: CheckRecord[];
  lastDiff: string | null;
}

export const FRESH_START: StartPoint = {
  attempt: 1,
  previousFindings: [],
  lastReviewer: { verdict: 'BLOCKED', edited_files: false, findings: [] },
  lastChecks: [],
  lastDiff: null,
};

export interface HarnessOptions extends SpawnContext {
  runId: string;
  run: RunDirectory;
  request: HarnessRequest;
  agents: AgentConfig;
  start: StartPoint;
  recorder: HarnessRecorder;
  onProgress?: (progress: Progress) => void;
}

export type HarnessResult =
  | {
      kind: 'receipt';
      receipt: FinalReceipt;
      exitCode: 0 | 1;
      ledgerEdited: boolean;
      /** What the ledger could not take (one line each); the receipt stands regardless. */
      warnings: string[];
    }
  | { kind: 'cancelled'; marker: string; attempt: number; phase: string };
