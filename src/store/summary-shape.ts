// The records' summary as stored in a ledger's header (`records_summary`), checked to be exactly
// the engine's type (engine/records-summary.ts). The digest already covers it, so a summary that
// fails here was forged or written by something else: the reader then takes the full path,
// which recomputes it from the records.
//
// Checked in place, not copied: a long loop's summary can hold an error signature and a state
// hash per record, and copying them cost more than parsing them. The maps (epochs, measurements)
// keep the parse's plain objects; the engine reads and writes them only through ownValue/setOwn,
// so a key named `__proto__` (JSON.parse makes it an own key) stays a plain key.
import { isObject } from '../engine/json-object';
import type { RecordsSummary } from '../engine/records-summary';
import { OUTCOMES } from '../engine/types';

const isCount = (value: unknown): boolean => Number.isSafeInteger(value) && (value as number) >= 0;
const isTextOrNull = (value: unknown): boolean => value === null || typeof value === 'string';
const isFiniteNumber = (value: unknown): boolean => typeof value === 'number' && Number.isFinite(value);

/** Exactly these own keys, in this order (the order the summary is written in). */
function hasKeys(value: Record<string, unknown>, keys: readonly string[]): boolean {
  const own = Object.keys(value);
  return own.length === keys.length && keys.every((key, i) => own[i] === key);
}

/** An object whose every value passes `valid` (for…in: no key list for a map of thousands). */
function isMapOf(value: unknown, valid: (item: unknown) => boolean): boolean {
  if (!isObject(value)) return false;
  for (const key in value) if (!valid(value[key])) return false;
  return true;
}

function isTextList(value: unknown): boolean {
  if (!Array.isArray(value)) return false;
  for (const item of value) if (typeof item !== 'string') return false;
  return true;
}

const isSpend = (value: unknown): boolean =>
  isObject(value) &&
  hasKeys(value, ['cost_usd', 'tokens_in', 'tokens_out']) &&
  isFiniteNumber(value.cost_usd) &&
  isCount(value.tokens_in) &&
  isCount(value.tokens_out);

function isEpoch(value: unknown): boolean {
  // `spend` is there once one of the epoch's records reported cost or tokens.
  return (
    isObject(value) &&
    (hasKeys(value, ['records', 'errors', 'states']) ||
      (hasKeys(value, ['records', 'errors', 'states', 'spend']) && isSpend(value.spend))) &&
    isCount(value.records) &&
    isTextList(value.errors) &&
    isTextList(value.states)
  );
}

function isJudged(value: unknown): boolean {
  if (value === null) return true;
  if (!isObject(value) || !hasKeys(value, ['n', 'verdict', 'weighted_total', 'critic_verdict', 'decision']))
    return false;
  const { n, verdict, weighted_total, critic_verdict, decision } = value;
  return (
    isCount(n) &&
    (verdict === null || verdict === 'pass' || verdict === 'fail') &&
    (weighted_total === null || isFiniteNumber(weighted_total)) &&
    isTextOrNull(critic_verdict) &&
    isTextOrNull(decision)
  );
}

function isLast(value: unknown): boolean {
  if (value === null) return true;
  return (
    isObject(value) &&
    hasKeys(value, ['outcome', 'timestamp']) &&
    (OUTCOMES as readonly unknown[]).includes(value.outcome) &&
    isTextOrNull(value.timestamp)
  );
}

/** `value` as the summary it holds, or null when it is not exactly a summary's shape. */
export function summaryFromJson(value: unknown): RecordsSummary | null {
  if (!isObject(value) || !hasKeys(value, ['count', 'epochs', 'judged', 'last', 'measurements', 'stalls']))
    return null;
  const { count, epochs, judged, last, measurements, stalls } = value;
  if (!isCount(count) || !isMapOf(epochs, isEpoch) || !isJudged(judged) || !isLast(last)) return null;
  if (measurements !== null && !isMapOf(measurements, isFiniteNumber)) return null;
  if (!isTextList(stalls)) return null;
  return value as unknown as RecordsSummary;
}
