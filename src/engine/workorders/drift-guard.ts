// `compile drift-guard`: resolves a work order's cited paths and symbols against the code
// checkout, and asserts every requirement carries a runnable acceptance. Fail-closed:
//  - no code path (or one that is not a folder) ⇒ symbols_resolved "skipped" (a soft halt);
//  - a cited path that is missing or escapes the code path ⇒ false, listed in missing_paths;
//  - a cited symbol (a fixed string) absent from its file ⇒ false, listed in unresolved_symbols;
//  - a citation field present but not an array ⇒ false, whatever else held (never a vacuous pass);
//  - acceptance_runnable needs at least one requirement, each `runnable: true`.
// The file system is reached only through `DriftProbe` (the driver's), so the rule stays pure.
import { isObject, raw } from './jq';

export interface DriftProbe {
  isDirectory(path: string): boolean;
  /** The cited path exists and, resolved (symlinks, `..`), stays inside `codePath`. */
  pathPresent(codePath: string, rel: string): boolean;
  /** The cited file is a regular file inside `codePath` and one of its lines contains `pattern`. */
  symbolPresent(codePath: string, rel: string, pattern: string): boolean;
}

export interface DriftGuardResult {
  ok: true;
  drift_guard: { symbols_resolved: boolean | 'skipped'; acceptance_runnable: boolean };
  missing_paths: string[];
  unresolved_symbols: { path: string; pattern: string }[];
  warnings: string[];
}

/** jq's `.[]?`: an array's elements or an object's values; nothing for anything else. */
function iterate(value: unknown): unknown[] {
  if (Array.isArray(value)) return value;
  if (isObject(value)) return Object.values(value);
  return [];
}

const absentOrList = (value: unknown): boolean =>
  value === undefined || value === null || Array.isArray(value);
const falsy = (value: unknown): boolean => value === undefined || value === null || value === false;

function acceptanceRunnable(requirements: unknown): boolean {
  const list = falsy(requirements)
    ? []
    : Array.isArray(requirements) || isObject(requirements)
      ? iterate(requirements)
      : undefined;
  if (list === undefined || list.length === 0) return false;
  return list.every((r) => isObject(r) && r.runnable === true);
}

/** The cited symbols as `[path, pattern]` pairs; the original stops at the first malformed one. */
function symbolPairs(value: unknown): [string, string][] {
  const pairs: [string, string][] = [];
  for (const symbol of iterate(value)) {
    if (symbol === null) continue;
    if (!isObject(symbol)) break;
    const path = falsy(symbol.path) ? '' : symbol.path;
    const pattern = falsy(symbol.pattern) ? '' : symbol.pattern;
    if (typeof path === 'object' || typeof pattern === 'object') break;
    pairs.push([raw(path), raw(pattern)]);
  }
  return pairs;
}

export function driftGuard(input: unknown, probe: DriftProbe): DriftGuardResult {
  const warnings: string[] = [];
  const missing: string[] = [];
  const unresolved: { path: string; pattern: string }[] = [];
  if (!isObject(input)) {
    // Not an object: every field reads as unreadable, so both citation checks fail closed.
    return {
      ok: true,
      drift_guard: { symbols_resolved: false, acceptance_runnable: false },
      missing_paths: [],
      unresolved_symbols: [],
      warnings: ['cited_paths_not_array', 'cited_symbols_not_array', 'no_code_path', 'no_citations'],
    };
  }
  let badCitations = false;
  if (!absentOrList(input.cited_paths)) {
    warnings.push('cited_paths_not_array');
    badCitations = true;
  }
  if (!absentOrList(input.cited_symbols)) {
    warnings.push('cited_symbols_not_array');
    badCitations = true;
  }
  const codePath = falsy(input.code_path) ? '' : raw(input.code_path);
  let resolved: boolean | 'skipped';
  if (codePath === '' || codePath === 'null') {
    resolved = 'skipped';
    warnings.push('no_code_path');
  } else if (!probe.isDirectory(codePath)) {
    resolved = 'skipped';
    warnings.push('code_path_missing');
  } else {
    for (const cited of iterate(input.cited_paths)) {
      if (falsy(cited)) continue;
      const rel = raw(cited);
      if (rel === '') continue;
      if (!probe.pathPresent(codePath, rel)) missing.push(rel);
    }
    for (const [path, pattern] of symbolPairs(input.cited_symbols)) {
      if (path === '') continue;
      if (!probe.symbolPresent(codePath, path, pattern)) unresolved.push({ path, pattern });
    }
    resolved = missing.length === 0 && unresolved.length === 0;
  }
  if (badCitations) resolved = false;
  const count = (value: unknown): number => (Array.isArray(value) ? value.length : 0);
  if (count(input.cited_paths) === 0 && count(input.cited_symbols) === 0) warnings.push('no_citations');
  return {
    ok: true,
    drift_guard: { symbols_resolved: resolved, acceptance_runnable: acceptanceRunnable(input.requirements) },
    missing_paths: missing,
    unresolved_symbols: unresolved,
    warnings,
  };
}
