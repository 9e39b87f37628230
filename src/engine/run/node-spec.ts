// The DAG node runner's input and output: a node JSON with the run's request, and
// a `loop.scillm_node_result.v1` built from the receipt, the validator and the required globs.
import { fnmatch } from './fnmatch';

export const NODE_RESULT_SCHEMA = 'loop.scillm_node_result.v1';

export interface NodeSpec {
  nodeId: string;
  objective: string;
  agentConfig: string;
  allowedGlobs: string[];
  checks: string[];
  requiredChangedGlobs: string[];
  maxAttempts: number;
  checkTimeout: number;
  runRoot: string;
  requireClean: boolean;
}

export class NodeSpecError extends Error {}

function requireString(data: Record<string, unknown>, key: string): string {
  const value = data[key];
  if (typeof value !== 'string' || value.trim() === '')
    throw new NodeSpecError(`node.${key}: expected non-empty string`);
  return value;
}

function stringList(data: Record<string, unknown>, key: string, required: boolean): string[] {
  const value = key in data ? data[key] : [];
  if (required && (!Array.isArray(value) || value.length === 0))
    throw new NodeSpecError(`node.${key}: expected non-empty list of strings`);
  if (!Array.isArray(value) || !value.every((v) => typeof v === 'string' && v !== ''))
    throw new NodeSpecError(`node.${key}: expected list of non-empty strings`);
  return value as string[];
}

function intValue(data: Record<string, unknown>, key: string, fallback: number): number {
  const value = key in data ? data[key] : fallback;
  if (typeof value !== 'number' || !Number.isInteger(value) || value < 1)
    throw new NodeSpecError(`node.${key}: expected integer >= 1`);
  return value;
}

/** Validates a parsed node JSON in the original's order; throws NodeSpecError naming the key. */
export function readNodeSpec(raw: unknown): NodeSpec {
  if (raw === null || typeof raw !== 'object' || Array.isArray(raw))
    throw new NodeSpecError('node JSON root must be an object');
  const data = raw as Record<string, unknown>;
  const spec: NodeSpec = {
    nodeId: requireString(data, 'node_id'),
    objective: requireString(data, 'objective'),
    agentConfig: requireString(data, 'agent_config'),
    allowedGlobs: stringList(data, 'allowed_globs', true),
    checks: stringList(data, 'checks', true),
    requiredChangedGlobs: stringList(data, 'required_changed_globs', false),
    maxAttempts: intValue(data, 'max_attempts', 3),
    checkTimeout: intValue(data, 'check_timeout', 300),
    runRoot: '.loop/runs',
    requireClean: true,
  };
  const runRoot = 'run_root' in data ? data.run_root : null;
  if (runRoot !== null && runRoot !== undefined) {
    if (typeof runRoot !== 'string' || runRoot.trim() === '')
      throw new NodeSpecError('node.run_root: expected non-empty string');
    spec.runRoot = runRoot;
  }
  if ('require_clean' in data) {
    if (typeof data.require_clean !== 'boolean')
      throw new NodeSpecError('node.require_clean: expected boolean');
    spec.requireClean = data.require_clean;
  }
  const worktree = 'worktree' in data ? data.worktree : { mode: 'existing' };
  if (worktree === null || typeof worktree !== 'object' || Array.isArray(worktree))
    throw new NodeSpecError('node.worktree: expected object');
  const mode = (worktree as Record<string, unknown>).mode ?? 'existing';
  if (mode !== 'existing')
    throw new NodeSpecError("node.worktree.mode: only 'existing' is supported by the minimal runner");
  return spec;
}

/** The required globs no changed file matches. */
export function missingRequiredGlobs(changed: readonly string[], required: readonly string[]): string[] {
  return required.filter((pattern) => !changed.some((p) => fnmatch(p, pattern)));
}

export interface LoopProcessFacts {
  exitCode: number | null;
  stdout: string;
  stderr: string;
}

export function infrastructureResult(
  nodeId: string,
  reason: string,
  loop: LoopProcessFacts | null,
): Record<string, unknown> {
  return {
    changed_files: [],
    checks: [],
    final_receipt: '',
    loop_exit_code: loop ? loop.exitCode : null,
    loop_final_verdict: null,
    loop_run_id: null,
    missing_required_changed_globs: [],
    node_id: nodeId,
    receipt_valid: false,
    required_changed_globs: [],
    required_changed_globs_satisfied: false,
    reviewer: { edited_files: false, findings: [reason], verdict: 'BLOCKED' },
    schema: NODE_RESULT_SCHEMA,
    status: 'BLOCKED',
    stderr: loop ? loop.stderr : reason,
    stdout: loop ? loop.stdout : '',
    stop_reason: 'INFRASTRUCTURE_FAILURE',
    validator_stderr: '',
    validator_stdout: '',
  };
}

export interface ValidatorFacts {
  valid: boolean;
  stdout: string;
  stderr: string;
}

/** Status: an invalid receipt blocks; else a missing required glob blocks (even over NEEDS_CHANGES); else the receipt's. */
export function resultFromReceipt(
  spec: NodeSpec,
  receipt: Record<string, unknown>,
  receiptPath: string,
  validator: ValidatorFacts,
  loop: LoopProcessFacts,
): Record<string, unknown> {
  const changed = Array.isArray(receipt.changed_files)
    ? receipt.changed_files.filter((x): x is string => typeof x === 'string')
    : [];
  const missing = missingRequiredGlobs(changed, spec.requiredChangedGlobs);
  const receiptStatus = receipt.final_verdict ?? 'BLOCKED';
  let status = receiptStatus;
  let stopReason = receipt.stop_reason ?? 'INFRASTRUCTURE_FAILURE';
  if (!validator.valid) {
    status = 'BLOCKED';
    stopReason = 'INVALID_RECEIPT';
  } else if (missing.length > 0) {
    status = 'BLOCKED';
    stopReason = 'REQUIRED_CHANGED_GLOB_MISSING';
  }
  return {
    changed_files: changed,
    checks: receipt.checks ?? [],
    final_receipt: receiptPath,
    loop_exit_code: loop.exitCode,
    loop_final_verdict: receiptStatus,
    loop_run_id: receipt.run_id ?? null,
    missing_required_changed_globs: missing,
    node_id: spec.nodeId,
    receipt_valid: validator.valid,
    required_changed_globs: spec.requiredChangedGlobs,
    required_changed_globs_satisfied: missing.length === 0,
    reviewer: receipt.reviewer ?? {},
    schema: NODE_RESULT_SCHEMA,
    status,
    stop_reason: stopReason,
    validator_stderr: validator.stderr,
    validator_stdout: validator.stdout,
  };
}
