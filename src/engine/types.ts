// Plain-data shapes shared by every engine rule. The ledger layout is the original work-loop
// engine's, key for key; Loop Ledger only adds
// `schema_version`.

/** The six outcomes an iteration (or a close) can end in. Only `continue` permits another. */
export const OUTCOMES = ['continue', 'complete', 'revise', 'escalate', 'pause', 'stop'] as const;
export type Outcome = (typeof OUTCOMES)[number];

export const CRITIC_VERDICTS = ['PASS', 'FAIL', 'REVISE', 'REVERT', 'ESCALATE'] as const;
export type CriticVerdict = (typeof CRITIC_VERDICTS)[number];

export const DECISIONS = ['retain', 'revert', 'revise', 'escalate'] as const;
export type Decision = (typeof DECISIONS)[number];

export const DIRECTIONS = ['higher-is-better', 'lower-is-better'] as const;
export type Direction = (typeof DIRECTIONS)[number];

export const STALLS = [
  'dependency-unavailable',
  'repeated-error',
  'circular-state',
  'retries-exhausted',
  // A loop-engineering cap (iterations, time, budget, review) was reached: stop, never success.
  'budget-stop',
  // A contract's cost_limit, token_limit or time_limit was reached: stop, like retries-exhausted.
  'cost-exhausted',
  'tokens-exhausted',
  'time-exhausted',
] as const;
export type StallName = (typeof STALLS)[number];

export interface RubricDimension {
  dimension: string;
  evidence_command: string;
  baseline: number;
  target: number;
  weight: number;
  failure_threshold: number;
  direction: Direction;
  hard_gate: boolean;
  must_not_regress?: boolean;
}

/** A validated loop contract: the twelve fields, plus the optional caps beside iteration_limit. */
export interface Contract {
  purpose: string;
  owner: string;
  starting_state: unknown;
  inputs: unknown;
  expected_outputs: unknown;
  success_criteria: unknown;
  failure_criteria: unknown;
  dependencies: unknown;
  iteration_limit: number;
  /** Optional: US dollars the epoch may spend (its records' `cost_usd`). */
  cost_limit?: number;
  /** Optional: tokens (in plus out) the epoch may spend. */
  token_limit?: number;
  /** Optional: seconds from the epoch's opening. */
  time_limit?: number;
  /** Optional: true makes every iterate take a workspace checkpoint unless told not to. */
  checkpoint?: boolean;
  timeout_behaviour: unknown;
  escalation_path: unknown;
  quality_rubric: RubricDimension[];
}

export interface DimensionScore {
  dimension: string;
  measured: number;
  score: number;
  weight: number;
  hard_gate: boolean;
  must_not_regress: boolean;
  gate_failed: boolean;
  failure_threshold: number;
  evidence_command: string;
}

/** `score`'s payload, and a record's `evaluation`. */
export interface Evaluation {
  dimensions: DimensionScore[];
  weighted_total: number;
  hard_gate_failures: string[];
  verdict: 'pass' | 'fail';
}

/** One iteration record: the 24 keys of the reference, in the order it lists them. */
export interface IterationRecord {
  n: number;
  timestamp: string | null;
  epoch: number;
  reported_outcome: Outcome;
  outcome: Outcome;
  stall: StallName | null;
  error_signature: string | null;
  state_hash: string | null;
  dependency_missing: string | null;
  actions: string[];
  baseline: Record<string, number> | null;
  measurements: Record<string, number> | null;
  evaluation: Evaluation | null;
  files_changed: string[];
  commands_run: string[];
  evidence_paths: string[];
  critic_verdict: CriticVerdict | null;
  critic_next: string | null;
  critic_brief: string | null;
  decision: Decision | null;
  blocker: string | null;
  evidence: string | null;
  recommended_next: string | null;
  note: string | null;
  /** Reported by the caller (`--cost`, `--tokens-in`, `--tokens-out`); absent when not reported. */
  cost_usd?: number;
  tokens_in?: number;
  tokens_out?: number;
}

export interface EpochEntry {
  n: number;
  contract: Contract;
  final_outcome: Outcome | null;
  iterations: number[];
  close_note: string | null;
  close_blocker: string | null;
  close_evidence: string | null;
  close_recommended_next: string | null;
}

export type Provenance = 'measured' | 'declared';

/**
 * A ledger as read from disk. Older (original-format) ledgers may lack the optional keys; the
 * engine reads them with the documented defaults (epoch 1, no epochs, stall threshold 3, …).
 */
export interface Ledger {
  schema_version?: number;
  session: string;
  contract: Contract;
  status: 'open' | 'closed';
  final_outcome: Outcome | null;
  opened_at?: string | null;
  epoch?: number;
  epochs?: EpochEntry[];
  baseline_provenance?: Record<string, Provenance> | null;
  iterations: IterationRecord[];
  completed_actions: string[];
  resumed: number;
  stall_threshold?: number;
  pending_brief?: { brief_id: string } | null;
  close_note?: string | null;
  close_blocker?: string | null;
  close_evidence?: string | null;
  close_recommended_next?: string | null;
}

/** One problem with the caller's input, printed on its own stderr line. */
export interface Finding {
  message: string;
  /** JSON path of the offending value inside the contract, when there is one. */
  path?: (string | number)[];
  /** A stable machine-readable code (diagnostics and quick fixes key on it). */
  code?: string;
  /** The fields the finding is about, by the engine's field names (see fields.ts). */
  fields?: string[];
}
