// The whole shape of a ledger, checked once on read, so the engine only ever sees the types it
// declares (src/engine/types.ts) and a hand-edited file is "corrupt, at <path>" instead of a
// TypeError deep inside a command. Pure; the CLI and the extension both reach it through
// parseLedgerText.
//
// Hand-written and table-driven rather than a zod schema: the CLI starts once per agent
// iteration and loading zod alone costs several milliseconds of its start-up budget (see the
// README's start-up numbers); this table is a few hundred bytes and checks a 10,000-record
// ledger in a few milliseconds without allocating on the happy path.
//
// Keys the original engine's older versions did not write are optional (the engine reads them
// with defaults); keys this table does not know are NOT errors: other parts of Loop Ledger add
// their own top-level and record keys and validate them themselves, and the store keeps them.
import { isObject } from '../engine/json-object';
import { CRITIC_VERDICTS, DECISIONS, DIRECTIONS, OUTCOMES } from '../engine/types';
import { pathKey } from './json-scan';
import {
  compileSpec,
  COUNT,
  FLAG,
  LIST,
  MAP,
  NUMBER,
  OBJECT,
  POSITIVE,
  PROVEN_RECORDS,
  RECORDS,
  STRING,
  WORD,
  type Passes,
  type Spec,
} from './shape-spec';

/** Where a check failed (built on the way back up, so a passing check allocates nothing). */
interface Problem {
  path: (string | number)[];
  detail: string;
}

// One interpreter over a table of specs (shape-spec.ts), not a closure per check: it names
// the first bad field. A ledger that passes is let through by the table compiled into plain
// functions (shape-spec.ts compileSpec) without running the interpreter at all.

/** What a bad value is, without quoting it: a message about a ledger never echoes its text. */
function found(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'a list';
  if (typeof value === 'number') return Number.isFinite(value) ? `${value}` : 'a number too large for JSON';
  if (typeof value === 'string') return value === '' ? 'an empty string' : 'a string';
  if (typeof value === 'boolean') return `${value}`;
  return typeof value === 'object' ? 'an object' : `a ${typeof value}`;
}

function check(spec: Spec, value: unknown): Problem | null {
  if (value === null && spec.nullable) return null;
  switch (spec.kind) {
    case STRING:
      if (typeof value === 'string') return null;
      break;
    case FLAG:
      if (typeof value === 'boolean') return null;
      break;
    case NUMBER:
      if (typeof value === 'number' && Number.isFinite(value)) return null;
      break;
    case POSITIVE:
      if (Number.isSafeInteger(value) && (value as number) >= 1) return null;
      break;
    case COUNT:
      if (Number.isSafeInteger(value) && (value as number) >= 0) return null;
      break;
    case WORD:
      if (typeof value === 'string' && (spec.words as readonly string[]).includes(value)) return null;
      break;
    case LIST:
    case RECORDS:
      if (Array.isArray(value))
        return spec.kind === LIST ? checkList(spec, value) : checkRecords(spec, value);
      break;
    case PROVEN_RECORDS:
      if (Array.isArray(value)) return null;
      break;
    case MAP:
      if (isObject(value)) return checkMap(spec, value);
      break;
    case OBJECT:
      if (isObject(value)) return checkObject(spec, value);
      break;
  }
  return { path: [], detail: `expected ${spec.expected}, found ${found(value)}` };
}

function checkList(spec: Spec, list: unknown[]): Problem | null {
  const item = spec.item as Spec;
  // A list of text (`completed_actions`: every action a long loop ever did) in one tight loop:
  // a call per element is most of the cost while the code is cold.
  let i = 0;
  if (item.kind === STRING && !item.nullable) while (i < list.length && typeof list[i] === 'string') i += 1;
  for (; i < list.length; i += 1) {
    const problem = check(item, list[i]);
    if (problem !== null) {
      problem.path.unshift(i);
      return problem;
    }
  }
  return null;
}

/** Records numbered 1, 2, 3… in file order: `n` is how resume and epochs refer to them. */
function checkRecords(spec: Spec, list: unknown[]): Problem | null {
  const problem = checkList(spec, list);
  if (problem !== null) return problem;
  for (let i = 0; i < list.length; i += 1) {
    const n = (list[i] as { n: number }).n;
    if (n !== i + 1)
      return {
        path: [i, 'n'],
        detail: `expected ${i + 1} (records are numbered 1, 2, 3… in order), found ${n}`,
      };
  }
  return null;
}

/** An object whose keys are names the user chose (dimensions) and whose values are all `item`. */
function checkMap(spec: Spec, map: Record<string, unknown>): Problem | null {
  const item = spec.item as Spec;
  for (const key in map) {
    const problem = check(item, map[key]);
    if (problem !== null) {
      problem.path.unshift(key);
      return problem;
    }
  }
  return null;
}

/** Known keys only; an absent optional key is fine, a present one must pass its check. */
function checkObject(spec: Spec, object: Record<string, unknown>): Problem | null {
  const keys = spec.keys as readonly string[];
  const fields = spec.fields as readonly Spec[];
  const required = spec.required as readonly boolean[];
  for (let i = 0; i < keys.length; i += 1) {
    const key = keys[i] as string;
    // JSON has no undefined, and no key of these tables is an Object.prototype name: undefined
    // means absent, without a hasOwnProperty call per field.
    const value = object[key];
    if (value === undefined) {
      if (required[i]) return { path: [key], detail: `missing (expected ${(fields[i] as Spec).expected})` };
      continue;
    }
    const field = fields[i] as Spec;
    // The common cases inline (a call per field is most of the cost while the code is cold).
    if (field.kind === STRING && (typeof value === 'string' || (value === null && field.nullable))) continue;
    const problem = check(field, value);
    if (problem !== null) {
      problem.path.unshift(key);
      return problem;
    }
  }
  return null;
}

const leaf = (kind: number, expected: string): Spec => ({ kind, expected, nullable: false });
const text = leaf(STRING, 'a string');
const flag = leaf(FLAG, 'true or false');
const number = leaf(NUMBER, 'a number');
const positive = leaf(POSITIVE, 'a whole number ≥ 1');
const count = leaf(COUNT, 'a whole number ≥ 0');

function oneOf(words: readonly string[]): Spec {
  return { kind: WORD, expected: `one of ${words.join(', ')}`, nullable: false, words };
}

function nullable(spec: Spec): Spec {
  return { ...spec, expected: `${spec.expected} or null`, nullable: true };
}

function listOf(item: Spec): Spec {
  return { kind: LIST, expected: 'a list', nullable: false, item };
}

function mapOf(item: Spec): Spec {
  return { kind: MAP, expected: 'an object', nullable: false, item };
}

/** [spec, required] per known key. */
type Fields = Record<string, readonly [Spec, boolean]>;

function objectOf(fields: Fields): Spec {
  const entries = Object.entries(fields);
  return {
    kind: OBJECT,
    expected: 'an object',
    nullable: false,
    keys: entries.map(([key]) => key),
    fields: entries.map(([, [spec]]) => spec),
    required: entries.map(([, [, required]]) => required),
  };
}

const REQUIRED = true;
const OPTIONAL = false;
const outcome = oneOf(OUTCOMES);
const texts = listOf(text);
const numbers = nullable(mapOf(number));

const rubricDimension = objectOf({
  dimension: [text, REQUIRED],
  evidence_command: [text, REQUIRED],
  baseline: [number, REQUIRED],
  target: [number, REQUIRED],
  weight: [number, REQUIRED],
  failure_threshold: [number, REQUIRED],
  direction: [oneOf(DIRECTIONS), REQUIRED],
  hard_gate: [flag, REQUIRED],
  must_not_regress: [flag, OPTIONAL],
});

/** The contract was validated in full when the loop opened; these are the keys the engine reads. */
const contract = objectOf({
  iteration_limit: [positive, REQUIRED],
  quality_rubric: [listOf(rubricDimension), OPTIONAL],
});

const dimensionScore = objectOf({
  dimension: [text, REQUIRED],
  measured: [number, REQUIRED],
  score: [number, REQUIRED],
  weight: [number, REQUIRED],
  hard_gate: [flag, REQUIRED],
  gate_failed: [flag, REQUIRED],
  must_not_regress: [flag, OPTIONAL],
  failure_threshold: [number, OPTIONAL],
  evidence_command: [text, OPTIONAL],
});

const evaluation = objectOf({
  dimensions: [listOf(dimensionScore), REQUIRED],
  weighted_total: [number, REQUIRED],
  hard_gate_failures: [texts, REQUIRED],
  verdict: [oneOf(['pass', 'fail']), REQUIRED],
});

const maybeText = nullable(text);

/** One iteration record (`n` is checked against its position separately). */
const iterationRecord = objectOf({
  n: [positive, REQUIRED],
  timestamp: [maybeText, OPTIONAL],
  epoch: [positive, OPTIONAL],
  reported_outcome: [outcome, OPTIONAL],
  outcome: [outcome, REQUIRED],
  // Any name, not only the four of STALLS: other loop kinds add predicates (loop engineering's
  // `budget-stop`), and nothing branches on a name it does not know.
  stall: [maybeText, OPTIONAL],
  error_signature: [maybeText, OPTIONAL],
  state_hash: [maybeText, OPTIONAL],
  dependency_missing: [maybeText, OPTIONAL],
  actions: [texts, OPTIONAL],
  baseline: [numbers, OPTIONAL],
  measurements: [numbers, OPTIONAL],
  evaluation: [nullable(evaluation), OPTIONAL],
  files_changed: [texts, OPTIONAL],
  commands_run: [texts, OPTIONAL],
  evidence_paths: [texts, OPTIONAL],
  critic_verdict: [nullable(oneOf(CRITIC_VERDICTS)), OPTIONAL],
  critic_next: [maybeText, OPTIONAL],
  critic_brief: [maybeText, OPTIONAL],
  decision: [nullable(oneOf(DECISIONS)), OPTIONAL],
  blocker: [maybeText, OPTIONAL],
  evidence: [maybeText, OPTIONAL],
  recommended_next: [maybeText, OPTIONAL],
  note: [maybeText, OPTIONAL],
});

const iterations: Spec = { kind: RECORDS, expected: 'a list', nullable: false, item: iterationRecord };

const closeFields: Fields = {
  close_note: [maybeText, OPTIONAL],
  close_blocker: [maybeText, OPTIONAL],
  close_evidence: [maybeText, OPTIONAL],
  close_recommended_next: [maybeText, OPTIONAL],
};

const epochEntry = objectOf({
  n: [positive, REQUIRED],
  contract: [contract, REQUIRED],
  final_outcome: [nullable(outcome), OPTIONAL],
  iterations: [listOf(positive), REQUIRED],
  ...closeFields,
});

const ledgerFields: Fields = {
  session: [text, REQUIRED],
  contract: [contract, REQUIRED],
  status: [oneOf(['open', 'closed']), REQUIRED],
  final_outcome: [nullable(outcome), OPTIONAL],
  opened_at: [maybeText, OPTIONAL],
  epoch: [positive, OPTIONAL],
  epochs: [listOf(epochEntry), OPTIONAL],
  baseline_provenance: [nullable(mapOf(oneOf(['measured', 'declared']))), OPTIONAL],
  iterations: [iterations, REQUIRED],
  completed_actions: [texts, REQUIRED],
  resumed: [count, OPTIONAL],
  stall_threshold: [positive, OPTIONAL],
  pending_brief: [nullable(objectOf({ brief_id: [text, REQUIRED] })), OPTIONAL],
  ...closeFields,
};
const ledger = objectOf(ledgerFields);
const provenRecords: Spec = { kind: PROVEN_RECORDS, expected: 'a list', nullable: false };
const ledgerWithProvenRecords = objectOf({ ...ledgerFields, iterations: [provenRecords, REQUIRED] });

/** `iterations[3].evaluation.dimensions[0].score` */
export function formatPath(path: readonly (string | number)[]): string {
  let out = '';
  for (const step of path) out += typeof step === 'number' ? `[${step}]` : pathKey(step, out === '');
  return out;
}

/**
 * Null when `value` has the shape of a ledger, else why not, naming the JSON path of the first
 * bad field. `session`, when given, is the id in the file's name: the ledger must claim it.
 * `recordsProven`: the records' digest matched (records-digest.ts), so they are not re-checked.
 */
export function ledgerShapeProblem(value: unknown, session?: string, recordsProven = false): string | null {
  const spec = recordsProven ? ledgerWithProvenRecords : ledger;
  const compiled = manyRecords(value) ? compiledFor(spec) : null;
  const problem = compiled?.(value) === true ? null : check(spec, value);
  if (problem !== null) {
    const where = problem.path.length === 0 ? '' : ` at ${formatPath(problem.path)}`;
    return `is invalid${where}: ${problem.detail}`;
  }
  const claimed = (value as { session: string }).session;
  if (session !== undefined && claimed !== session)
    return `is invalid at session: it names another session than its file name ${JSON.stringify(`${session}.json`)}`;
  return null;
}

/**
 * Whether `record`, the ledger's record at `index`, has a record's shape and is numbered
 * `index + 1` — the check the full ledger check makes of each element of `iterations`, for a
 * reader that parses the records one at a time (ledger-sliced.ts) and never holds them all. It
 * only answers; a record that fails is named by the full check (ledgerShapeProblem).
 */
export function recordPasses(record: unknown, index: number): boolean {
  const compiled = compiledFor(iterationRecord);
  const passes = compiled === null ? check(iterationRecord, record) === null : compiled(record);
  return passes && (record as { n: unknown }).n === index + 1;
}

/**
 * From this many records the compiled table pays for compiling it; a young loop's ledger is
 * checked by the interpreter, as quickly as the compiling alone would take.
 */
export const COMPILED_FROM_RECORDS = 64;

function manyRecords(value: unknown): boolean {
  const records = (value as { iterations?: unknown } | null)?.iterations;
  return Array.isArray(records) && records.length >= COMPILED_FROM_RECORDS;
}

const compiledSpecs = new Map<Spec, Passes | null>();

/** The table compiled once per process, on first use (null: the interpreter decides alone). */
function compiledFor(spec: Spec): Passes | null {
  let passes = compiledSpecs.get(spec);
  if (passes === undefined) {
    passes = compileSpec(spec);
    compiledSpecs.set(spec, passes);
  }
  return passes;
}
