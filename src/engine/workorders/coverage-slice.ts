// `compile coverage-slice`: slices a task's coverage map to one work order's aspects and derives
// the fail-closed `verified` verdict. The rules that keep it from failing open:
//  - an EMPTY covered slice is never verified (AND over nothing would be true);
//  - any poison warning in the map poisons every work order (warnings carry no aspect);
//  - `aspects` must be an array, and both sides of the match must be strings (membership,
//    never substring or sub-sequence);
//  - status precedence poisoned > uncovered > covered.
// Total: every input yields an object, and the kernel always exits 0.
import { isObject } from './jq';

export interface CoverageSlice {
  ok: boolean;
  verified: boolean;
  coverage_status: 'covered' | 'uncovered' | 'poisoned';
  covered_count: number;
  covered_entries: unknown[];
  poison_warnings: unknown[];
  aspects: string[];
  warnings: string[];
}

const POISON = /recipe_body_unverified|slug_not_in_catalog/;

function failClosed(ok: boolean, warning: string): CoverageSlice {
  return {
    ok,
    verified: false,
    coverage_status: 'uncovered',
    covered_count: 0,
    covered_entries: [],
    poison_warnings: [],
    aspects: [],
    warnings: [warning],
  };
}

/** A poison code anywhere in the warning, whatever its type, case or padding (over-poisoning is safe). */
function isPoison(warning: unknown): boolean {
  const text = typeof warning === 'string' ? warning : JSON.stringify(warning);
  return POISON.test(text.replace(/[A-Z]+/g, (s) => s.toLowerCase()));
}

/** jq's `.[]`: an array's elements or an object's values; undefined when the value cannot iterate. */
function iterate(value: unknown): unknown[] | undefined {
  if (Array.isArray(value)) return value;
  if (isObject(value)) return Object.values(value);
  return undefined;
}

/** `input` is the parsed stdin (undefined when it was not JSON). */
export function coverageSlice(input: unknown): CoverageSlice {
  const unparseable = failClosed(false, 'input_unparseable');
  if (input === undefined || (input !== null && !isObject(input))) return unparseable;
  const aspectsRaw = input === null ? null : input.aspects;
  if (!Array.isArray(aspectsRaw)) return failClosed(true, 'aspects_not_array');
  const aspects = aspectsRaw.filter((a): a is string => typeof a === 'string');
  const map = input === null ? undefined : input.coverage_map;
  const mapMissing = map === undefined || map === null;
  if (!mapMissing && !isObject(map)) return unparseable;
  const entriesRaw = mapMissing ? null : map.entries;
  const warningsRaw = mapMissing ? null : map.warnings;
  // jq's `//`: null, absent and false fall back to [].
  const entries =
    entriesRaw === undefined || entriesRaw === null || entriesRaw === false ? [] : iterate(entriesRaw);
  const mapWarnings =
    warningsRaw === undefined || warningsRaw === null || warningsRaw === false ? [] : iterate(warningsRaw);
  if (entries === undefined || mapWarnings === undefined) return unparseable;
  // `.aspect` on an entry that is neither an object nor null is an error in the original: unparseable.
  if (entries.some((entry) => entry !== null && !isObject(entry))) return unparseable;
  const covered = entries.filter(
    (entry) => isObject(entry) && typeof entry.aspect === 'string' && aspects.includes(entry.aspect),
  );
  const poison = mapWarnings.filter(isPoison);
  const poisoned = poison.length > 0;
  const empty = covered.length === 0;
  const verified =
    !poisoned && !empty && covered.every((entry) => isObject(entry) && entry.verified === true);
  return {
    ok: true,
    verified,
    coverage_status: poisoned ? 'poisoned' : empty ? 'uncovered' : 'covered',
    covered_count: covered.length,
    covered_entries: covered,
    poison_warnings: poison,
    aspects,
    warnings: mapMissing ? ['coverage_map_missing'] : [],
  };
}
