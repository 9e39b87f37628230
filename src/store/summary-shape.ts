// The records' summary as stored in a ledger's header (`records_summary`), read back into the
// engine's type (engine/records-summary.ts). The digest already covers it, so a summary that
// fails here was forged or written by something else: the reader then takes the full path,
// which recomputes it from the records. Maps are rebuilt without a prototype (an error signature
// or a dimension named `__proto__` stays a plain key) and in their stored order, so the summary
// serialises back to exactly the text it was read from.
import { isObject } from '../engine/json-object';
import type { EpochSummary, JudgedSummary, RecordsSummary } from '../engine/records-summary';
import { setOwn, textKeyed } from '../engine/text-keyed';
import { OUTCOMES, type Outcome } from '../engine/types';

const isCount = (value: unknown): value is number => Number.isSafeInteger(value) && (value as number) >= 0;
const isTextOrNull = (value: unknown): value is string | null => value === null || typeof value === 'string';

function hasKeys(value: Record<string, unknown>, keys: readonly string[]): boolean {
  const own = Object.keys(value);
  return own.length === keys.length && keys.every((key, i) => own[i] === key);
}

/** A map whose values all pass `valid`, rebuilt prototype-free in the same order; else null. */
function mapOf<T>(value: unknown, valid: (item: unknown) => T | null): Record<string, T> | null {
  if (!isObject(value)) return null;
  const map = textKeyed<T>();
  for (const key of Object.keys(value)) {
    const item = valid(value[key]);
    if (item === null) return null;
    setOwn(map, key, item);
  }
  return map;
}

const countOrNull = (value: unknown): number | null => (isCount(value) && value > 0 ? value : null);

function epochOf(value: unknown): EpochSummary | null {
  if (!isObject(value) || !hasKeys(value, ['records', 'errors', 'states'])) return null;
  const errors = mapOf(value.errors, countOrNull);
  const states = mapOf(value.states, countOrNull);
  if (!isCount(value.records) || errors === null || states === null) return null;
  return { records: value.records, errors, states };
}

function judgedOf(value: unknown): JudgedSummary | null | undefined {
  if (value === null) return null;
  if (!isObject(value) || !hasKeys(value, ['n', 'verdict', 'weighted_total', 'critic_verdict', 'decision']))
    return undefined;
  const { n, verdict, weighted_total, critic_verdict, decision } = value;
  if (!isCount(n) || !(verdict === null || verdict === 'pass' || verdict === 'fail')) return undefined;
  if (!(weighted_total === null || (typeof weighted_total === 'number' && Number.isFinite(weighted_total))))
    return undefined;
  if (!isTextOrNull(critic_verdict) || !isTextOrNull(decision)) return undefined;
  return { n, verdict, weighted_total, critic_verdict, decision };
}

function lastOf(value: unknown): RecordsSummary['last'] | undefined {
  if (value === null) return null;
  if (!isObject(value) || !hasKeys(value, ['outcome', 'timestamp'])) return undefined;
  if (!(OUTCOMES as readonly unknown[]).includes(value.outcome) || !isTextOrNull(value.timestamp))
    return undefined;
  return { outcome: value.outcome as Outcome, timestamp: value.timestamp };
}

const numberOrNull = (value: unknown): number | null =>
  typeof value === 'number' && Number.isFinite(value) ? value : null;

/** The summary `value` holds, or null when it is not exactly a summary's shape. */
export function summaryFromJson(value: unknown): RecordsSummary | null {
  if (!isObject(value) || !hasKeys(value, ['count', 'epochs', 'judged', 'last', 'measurements', 'stalls']))
    return null;
  const epochs = mapOf(value.epochs, epochOf);
  const judged = judgedOf(value.judged);
  const last = lastOf(value.last);
  const measurements = value.measurements === null ? null : mapOf(value.measurements, numberOrNull);
  const stalls = value.stalls;
  if (!isCount(value.count) || epochs === null || judged === undefined || last === undefined) return null;
  if (value.measurements !== null && measurements === null) return null;
  if (!Array.isArray(stalls) || !stalls.every((s) => typeof s === 'string')) return null;
  return { count: value.count, epochs, judged, last, measurements, stalls: [...(stalls as string[])] };
}
