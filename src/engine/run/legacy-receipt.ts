// The older receipt format (the chat-driven `$loop` protocol of the original harness):
// `loop_id`, `allowed_scope {include, exclude}`, `agents`, `explorer_receipt`, `attempts[]` with
// per-attempt coder and code-reviewer receipts, `final_*`. The original validator applies these
// rules to any receipt whose `schema` is not `loop.final_receipt.v1`; we recognise the shape and
// apply the same rules (all collected, in the original's order, with its messages), except that a
// boolean is not an integer. We never write this format.
import { CONTRACT_FIELD_NAMES } from '../contract/shape';
import { FINAL_RECEIPT_SCHEMA, isSafeRelativePath, isTruthy } from './receipt';
import { matchesAny } from './fnmatch';
import { pyRepr, pyTypeName } from './py-repr';
import { VERDICTS } from './stop-rules';
import { isObject } from '../json-object';

/** The older format's stop reasons (its own vocabulary, not the v1 enum). */
export const LEGACY_STOP_REASONS = [
  'REVIEWER_PASS',
  'REVIEWER_BLOCKED',
  'MAX_ATTEMPTS',
  'SCOPE_BLOCKED',
  'HUMAN_DECISION',
  'SCHEDULE_REGISTERED',
] as const;

/** Its required top-level keys, sorted (the order missing ones are reported in). */
export const LEGACY_ROOT_KEYS = [
  'agents',
  'allowed_scope',
  'attempts',
  'attempts_used',
  'explorer_receipt',
  'final_changed_files',
  'final_tests_run',
  'final_verdict',
  'loop_id',
  'max_attempts',
  'objective',
  'remaining_risks',
  'run_dir',
  'stop_reason',
];

type Obj = Record<string, unknown>;
type Kind = 'str' | 'int' | 'dict' | 'list';

const has = (o: Obj, key: string) => Object.prototype.hasOwnProperty.call(o, key);

function isKind(value: unknown, kind: Kind): boolean {
  switch (kind) {
    case 'str':
      return typeof value === 'string';
    case 'int':
      return typeof value === 'number' && Number.isInteger(value); // never a boolean
    case 'dict':
      return isObject(value);
    case 'list':
      return Array.isArray(value);
  }
}

/**
 * An older receipt: a JSON object whose `schema` is not the v1 one, with at least one of the older
 * format's top-level keys and none of a work-loop contract's twelve fields (so a contract, even a
 * broken one, keeps getting the contract rules).
 */
export function isLegacyReceiptShape(data: unknown): data is Obj {
  if (!isObject(data) || data.schema === FINAL_RECEIPT_SCHEMA || has(data, 'kind')) return false;
  if (CONTRACT_FIELD_NAMES.some((field) => has(data, field))) return false;
  return LEGACY_ROOT_KEYS.some((key) => key !== 'objective' && has(data, key));
}

class Errors {
  readonly list: string[] = [];
  add(message: string): void {
    this.list.push(message);
  }
  /** The value when `obj[key]` exists with the right kind; else an error and undefined. */
  need(obj: unknown, key: string, kind: Kind, ctx: string): unknown {
    if (!isObject(obj) || !has(obj, key)) {
      this.add(`${ctx}: missing required key ${pyRepr(key)}`);
      return undefined;
    }
    const value = obj[key];
    if (!isKind(value, kind)) {
      this.add(`${ctx}.${key}: expected ${kind}, got ${pyTypeName(value)}`);
      return undefined;
    }
    return value;
  }
  /** The strings of a required list (each non-string an error). */
  strings(obj: unknown, key: string, ctx: string): string[] {
    const value = this.need(obj, key, 'list', ctx);
    if (!Array.isArray(value)) return [];
    const out: string[] = [];
    value.forEach((item, i) => {
      if (typeof item === 'string') out.push(item);
      else this.add(`${ctx}.${key}[${i}]: expected string, got ${pyTypeName(item)}`);
    });
    return out;
  }
}

function allowedByScope(path: string, include: string[], exclude: string[]): boolean {
  if (!isSafeRelativePath(path)) return false;
  if (exclude.length > 0 && matchesAny(path, exclude)) return false;
  return matchesAny(path, include);
}

function artifactPath(e: Errors, value: unknown, ctx: string, runDir: string | undefined): void {
  if (typeof value !== 'string' || value === '') return e.add(`${ctx}: expected non-empty string path`);
  if (!isSafeRelativePath(value)) return e.add(`${ctx}: path must be safe and relative`);
  if (runDir && !value.startsWith(runDir.replace(/\/+$/, '') + '/'))
    e.add(`${ctx}: path must live under run_dir ${pyRepr(runDir)}`);
}

const sortedRepr = (values: readonly string[]) => pyRepr([...values].sort());

interface Scope {
  include: string[];
  exclude: string[];
}

function checkScope(e: Errors, scope: unknown): Scope {
  if (!isObject(scope)) return { include: [], exclude: [] };
  const include = e.strings(scope, 'include', 'receipt.allowed_scope');
  let exclude: string[] = [];
  const raw = has(scope, 'exclude') ? scope.exclude : [];
  if (!Array.isArray(raw)) e.add('receipt.allowed_scope.exclude: expected list');
  else {
    exclude = raw.filter((x): x is string => typeof x === 'string');
    if (exclude.length !== raw.length) e.add('receipt.allowed_scope.exclude: all entries must be strings');
  }
  if (include.length === 0) e.add('receipt.allowed_scope.include: must contain at least one glob pattern');
  return { include, exclude };
}

/** The producing agent's name (`coder`, or `technical-writer` when `agents.producer` says so). */
function checkAgents(e: Errors, agents: unknown): unknown {
  if (!isObject(agents)) return 'coder';
  for (const [key, name] of [
    ['explorer', 'explorer'],
    ['code_reviewer', 'code-reviewer'],
  ] as const) {
    const value = has(agents, key) ? agents[key] : null;
    if (value !== name) e.add(`receipt.agents.${key}: expected ${pyRepr(name)}, got ${pyRepr(value)}`);
  }
  if (has(agents, 'producer')) {
    if (agents.producer !== 'coder' && agents.producer !== 'technical-writer')
      e.add("receipt.agents.producer: expected 'coder' or 'technical-writer'");
    return agents.producer;
  }
  if (agents.coder !== 'coder')
    e.add(
      `receipt.agents.coder: expected 'coder', got ${pyRepr(has(agents, 'coder') ? agents.coder : null)}`,
    );
  return 'coder';
}

function checkExplorer(e: Errors, explorer: unknown): void {
  if (!isObject(explorer)) return;
  if (explorer.agent !== 'explorer') e.add("receipt.explorer_receipt.agent: expected 'explorer'");
  if (explorer.mode !== 'read_only') e.add("receipt.explorer_receipt.mode: expected 'read_only'");
  for (const key of ['target_files', 'test_files', 'risks', 'recommended_plan'])
    e.strings(explorer, key, 'receipt.explorer_receipt');
  e.need(explorer, 'objective', 'str', 'receipt.explorer_receipt');
}

interface AttemptsSeen {
  verdicts: string[];
  firstPass: number | null;
}

function checkAttempts(
  e: Errors,
  attempts: unknown[],
  runDir: string | undefined,
  producer: unknown,
  scope: Scope,
): AttemptsSeen {
  const seen: AttemptsSeen = { verdicts: [], firstPass: null };
  attempts.forEach((attempt, i) => {
    const n = i + 1;
    const ctx = `receipt.attempts[${i}]`;
    if (!isObject(attempt)) return e.add(`${ctx}: expected object`);
    if (attempt.attempt !== n) e.add(`${ctx}.attempt: expected sequential attempt number ${n}`);
    const paths = e.need(attempt, 'artifact_paths', 'dict', ctx);
    const coder = e.need(attempt, 'coder_receipt', 'dict', ctx);
    const reviewer = e.need(attempt, 'code_reviewer_receipt', 'dict', ctx);
    if (isObject(paths))
      for (const key of ['changed_files', 'diff', 'tests_log', 'coder_receipt', 'code_reviewer_receipt'])
        artifactPath(e, paths[key], `${ctx}.artifact_paths.${key}`, runDir);
    if (isObject(coder)) {
      if (coder.agent !== producer) e.add(`${ctx}.coder_receipt.agent: expected ${pyRepr(producer)}`);
      if (coder.attempt !== n) e.add(`${ctx}.coder_receipt.attempt: expected ${n}`);
      const changed = e.strings(coder, 'changed_files', `${ctx}.coder_receipt`);
      e.strings(coder, 'tests_run', `${ctx}.coder_receipt`);
      e.strings(coder, 'assumptions', `${ctx}.coder_receipt`);
      e.need(coder, 'summary', 'str', `${ctx}.coder_receipt`);
      for (const f of changed)
        if (scope.include.length > 0 && !allowedByScope(f, scope.include, scope.exclude))
          e.add(`${ctx}.coder_receipt.changed_files: ${pyRepr(f)} is outside allowed_scope`);
    }
    if (isObject(reviewer)) {
      const rctx = `${ctx}.code_reviewer_receipt`;
      if (reviewer.agent !== 'code-reviewer') e.add(`${rctx}.agent: expected 'code-reviewer'`);
      if (reviewer.attempt !== n) e.add(`${rctx}.attempt: expected ${n}`);
      if (reviewer.mode !== 'fresh_read_only') e.add(`${rctx}.mode: expected 'fresh_read_only'`);
      const verdict = e.need(reviewer, 'verdict', 'str', rctx);
      for (const key of ['findings', 'required_fixes', 'tests_checked']) e.strings(reviewer, key, rctx);
      const edited = e.need(reviewer, 'edited_files', 'list', rctx);
      if (typeof verdict === 'string') {
        if (!(VERDICTS as readonly string[]).includes(verdict))
          e.add(`${rctx}.verdict: must be one of ${sortedRepr(VERDICTS)}`);
        seen.verdicts.push(verdict);
        if (verdict === 'PASS' && seen.firstPass === null) seen.firstPass = n;
      }
      if (Array.isArray(edited) && edited.length > 0)
        e.add(`${rctx}.edited_files: reviewer must be read-only; got ${pyRepr(edited)}`);
    }
  });
  return seen;
}

/** Every error the original's older-format rules find (empty when valid). */
export function validateLegacyReceipt(data: Obj): string[] {
  const e = new Errors();
  for (const key of LEGACY_ROOT_KEYS)
    if (!has(data, key)) e.add(`receipt: missing required key ${pyRepr(key)}`);
  const loopId = e.need(data, 'loop_id', 'str', 'receipt');
  const objective = e.need(data, 'objective', 'str', 'receipt');
  const runDir = e.need(data, 'run_dir', 'str', 'receipt') as string | undefined;
  const max = e.need(data, 'max_attempts', 'int', 'receipt') as number | undefined;
  const used = e.need(data, 'attempts_used', 'int', 'receipt') as number | undefined;
  const scopeRaw = e.need(data, 'allowed_scope', 'dict', 'receipt');
  const agents = e.need(data, 'agents', 'dict', 'receipt');
  const verdict = e.need(data, 'final_verdict', 'str', 'receipt');
  const reason = e.need(data, 'stop_reason', 'str', 'receipt');
  const explorer = e.need(data, 'explorer_receipt', 'dict', 'receipt');
  const attempts = e.need(data, 'attempts', 'list', 'receipt') as unknown[] | undefined;
  const finalChanged = e.need(data, 'final_changed_files', 'list', 'receipt') as unknown[] | undefined;
  const testsRun = e.need(data, 'final_tests_run', 'list', 'receipt') as unknown[] | undefined;
  const risks = e.need(data, 'remaining_risks', 'list', 'receipt') as unknown[] | undefined;

  if (loopId === '') e.add('receipt.loop_id: must not be empty');
  if (objective === '') e.add('receipt.objective: must not be empty');
  if (runDir !== undefined && (!runDir.startsWith('.loop/runs/') || !isSafeRelativePath(runDir)))
    e.add('receipt.run_dir: must be a safe relative path under .loop/runs/');
  if (max !== undefined && !(max >= 1 && max <= 10)) e.add('receipt.max_attempts: must be between 1 and 10');
  if (typeof verdict === 'string' && !(VERDICTS as readonly string[]).includes(verdict))
    e.add(`receipt.final_verdict: must be one of ${sortedRepr(VERDICTS)}`);
  if (typeof reason === 'string' && !(LEGACY_STOP_REASONS as readonly string[]).includes(reason))
    e.add(`receipt.stop_reason: must be one of ${sortedRepr(LEGACY_STOP_REASONS)}`);

  const scope = checkScope(e, scopeRaw);
  const producer = checkAgents(e, agents);
  checkExplorer(e, explorer);

  if (attempts !== undefined && used !== undefined) {
    if (used !== attempts.length)
      e.add(`receipt.attempts_used: ${used} does not match attempts length ${attempts.length}`);
    if (max !== undefined && attempts.length > max)
      e.add(`receipt.attempts: length ${attempts.length} exceeds max_attempts ${max}`);
    if (attempts.length === 0 && verdict !== 'BLOCKED')
      e.add('receipt.attempts: non-BLOCKED receipt must include at least one attempt');
  }
  const seen = checkAttempts(e, attempts ?? [], runDir, producer, scope);
  if (seen.firstPass !== null && attempts !== undefined && seen.firstPass !== attempts.length)
    e.add('receipt.attempts: loop continued after code-reviewer PASS');

  const lastVerdict = seen.verdicts[seen.verdicts.length - 1];
  if (verdict === 'PASS') {
    if (lastVerdict !== 'PASS')
      e.add('receipt.final_verdict: PASS requires final code_reviewer_receipt.verdict PASS');
    if (reason !== 'REVIEWER_PASS') e.add('receipt.stop_reason: PASS requires REVIEWER_PASS');
    if (testsRun !== undefined && testsRun.length === 0 && !isTruthy(data.no_test_explanation))
      e.add('receipt.final_tests_run: PASS requires tests/checks or no_test_explanation');
  }
  if (verdict === 'BLOCKED' && (reason === 'REVIEWER_PASS' || reason === 'MAX_ATTEMPTS'))
    e.add(`receipt.stop_reason: BLOCKED cannot use ${String(reason)}`);
  if (verdict !== 'PASS' && reason === 'REVIEWER_PASS')
    e.add('receipt.stop_reason: REVIEWER_PASS requires final_verdict PASS');
  if (
    verdict === 'NEEDS_CHANGES' &&
    !['MAX_ATTEMPTS', 'HUMAN_DECISION', 'SCOPE_BLOCKED'].includes(reason as string)
  )
    e.add(
      'receipt.stop_reason: NEEDS_CHANGES normally requires MAX_ATTEMPTS, HUMAN_DECISION, or SCOPE_BLOCKED',
    );

  for (const f of finalChanged ?? []) {
    if (typeof f !== 'string') e.add('receipt.final_changed_files: all entries must be strings');
    else if (scope.include.length > 0 && !allowedByScope(f, scope.include, scope.exclude))
      e.add(`receipt.final_changed_files: ${pyRepr(f)} is outside allowed_scope`);
  }
  for (const [key, list] of [
    ['final_tests_run', testsRun],
    ['remaining_risks', risks],
  ] as const)
    for (const item of list ?? [])
      if (typeof item !== 'string') e.add(`receipt.${key}: all entries must be strings`);
  return e.list;
}
