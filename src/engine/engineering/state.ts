// The ledger key `engineering`: what `open --engineering` admitted (fields, parsed caps, NO_OP
// policy) and what the loop has spent since. Ledgers are read from disk, so the key is checked
// here before any rule trusts it; extra keys inside it stay allowed (a newer writer may add some).
import { parseCaps, type ParsedCaps } from './caps';
import { CAP_FIELDS, NO_OP_FIELD, NO_OP_OUTPUT_LIMIT_FIELD, snakeKey, type CapField } from './fields';
import { normalise } from './parse-md';
import { canonicalMode, canonicalTopology } from './validate';

/** What the loop has used, added up over every iteration of the ledger. */
export interface Spent {
  calls: number;
  tokens: number;
  usd: number;
  /** Time the caller reported with `--spent ms=N` (e.g. tool time). */
  ms: number;
}
export const SPENT_KINDS = ['calls', 'tokens', 'usd', 'ms'] as const;
export type SpentKind = (typeof SPENT_KINDS)[number];

export interface EngineeringState {
  contract_path: string;
  form: 'markdown' | 'json';
  /** Every field as written, under snake_case keys (`max_iterations`, `non_goals`, unknown keys too). */
  fields: Record<string, string>;
  mode: string;
  topology: string;
  caps: ParsedCaps;
  /** The NO_OP policy: the eligibility query, and the outputs a quiet iteration may produce; null: NO_OP not allowed. */
  no_op: { query: string; output_limit: number } | null;
  spent: Spent;
  /** Wall time from `opened_at` to the newest iteration, by the callers' clocks. */
  elapsed_ms: number;
  /** The newest brief's diff, which the review budget caps. */
  review: { changed_lines: number; files: number } | null;
}

export const ZERO_SPENT: Spent = { calls: 0, tokens: 0, usd: 0, ms: 0 };

/** A NO_OP output limit as written: a whole number ≥ 0, or null when it is something else. */
function outputLimit(text: string | undefined): number | null {
  if (text === undefined || normalise(text) === '') return 0;
  const t = normalise(text);
  return /^\d+$/.test(t) ? Number(t) : null;
}

/** The four cap fields' values, normalised as the cap rules read them. */
export function capValues(fields: Map<string, string>): Record<CapField, string> {
  return Object.fromEntries(CAP_FIELDS.map((f) => [f, normalise(fields.get(f) ?? '')])) as Record<
    CapField,
    string
  >;
}

/** Builds the ledger key from admitted fields; returns a problem instead when the NO_OP limit is unreadable. */
export function engineeringState(
  contractPath: string,
  form: 'markdown' | 'json',
  fields: Map<string, string>,
): EngineeringState | { problem: string } {
  const limit = outputLimit(fields.get(NO_OP_OUTPUT_LIMIT_FIELD));
  if (limit === null) {
    return { problem: `${NO_OP_OUTPUT_LIMIT_FIELD} must be a whole number of outputs (0 or more)` };
  }
  const query = fields.get(NO_OP_FIELD);
  const values = capValues(fields);
  return {
    contract_path: contractPath,
    form,
    fields: Object.fromEntries([...fields.entries()].map(([k, v]) => [snakeKey(k), v])),
    mode: canonicalMode(fields.get('mode') ?? ''),
    topology: canonicalTopology(fields.get('topology') ?? ''),
    caps: parseCaps(values),
    no_op: query !== undefined && normalise(query) !== '' ? { query, output_limit: limit } : null,
    spent: { ...ZERO_SPENT },
    elapsed_ms: 0,
    review: null,
  };
}

const isCount = (v: unknown): boolean => typeof v === 'number' && Number.isFinite(v) && v >= 0;
const isCapValue = (v: unknown): boolean =>
  v === null || (typeof v === 'number' && Number.isFinite(v) && v > 0);

/** The ledger's `engineering` key: absent → null; malformed → the problem, naming the key. */
export function readEngineeringState(ledger: {
  engineering?: unknown;
}): EngineeringState | null | { problem: string } {
  const raw = ledger.engineering;
  if (raw === undefined || raw === null) return null;
  const bad = (what: string) => ({ problem: `ledger key engineering.${what} is malformed` });
  if (typeof raw !== 'object' || Array.isArray(raw))
    return { problem: 'ledger key engineering is not an object' };
  const s = raw as Partial<EngineeringState>;
  if (typeof s.fields !== 'object' || s.fields === null) return bad('fields');
  if (typeof s.caps !== 'object' || s.caps === null) return bad('caps');
  for (const key of ['iterations', 'ms', 'calls', 'tokens', 'usd', 'changed_lines', 'files'] as const) {
    if (!isCapValue(s.caps[key] ?? null)) return bad(`caps.${key}`);
  }
  if (typeof s.spent !== 'object' || s.spent === null) return bad('spent');
  for (const kind of SPENT_KINDS) if (!isCount(s.spent[kind] ?? 0)) return bad(`spent.${kind}`);
  if (!isCount(s.elapsed_ms ?? 0)) return bad('elapsed_ms');
  if (s.no_op !== null && s.no_op !== undefined) {
    if (typeof s.no_op.query !== 'string' || !isCount(s.no_op.output_limit)) return bad('no_op');
  }
  if (s.review !== null && s.review !== undefined) {
    if (!isCount(s.review.changed_lines) || !isCount(s.review.files)) return bad('review');
  }
  return {
    ...(s as EngineeringState),
    spent: { ...ZERO_SPENT, ...s.spent },
    elapsed_ms: s.elapsed_ms ?? 0,
    no_op: s.no_op ?? null,
    review: s.review ?? null,
  };
}
