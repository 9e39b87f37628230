// Does the diff cover the change the transcript declares? A declared path the diff lacks
// means the packet shows part of the change while a verdict on it would read as a verdict
// on all of it, so every such path is a refusal. Extra diff paths are only recorded.
import type { Finding } from '../types';
import { sortedUnique } from '../python-text';

const ABBREVIATION = '.../';

interface CoverageResult {
  findings: Finding[];
  /** The diff paths that some declared path claimed. */
  covered: Set<string>;
}

function resolve(declared: string[], diffPaths: string[]): CoverageResult {
  const present = new Set(diffPaths);
  const covered = new Set<string>();
  const findings: Finding[] = [];
  for (const path of declared) {
    if (present.has(path)) {
      covered.add(path);
      continue;
    }
    if (path.startsWith(ABBREVIATION)) {
      const tail = path.slice(ABBREVIATION.length);
      const suffix = '/' + tail;
      const matches = sortedUnique(diffPaths.filter((p) => p === tail || p.endsWith(suffix)));
      if (matches.length === 1) {
        covered.add(matches[0] as string);
        continue;
      }
      if (matches.length > 1) {
        findings.push({
          code: 'scope-ambiguous',
          message:
            `${path}: ambiguous — this abbreviated path matches ${matches.length} diff paths ` +
            `(${matches.join(', ')}); produce the change scope with --name-only instead`,
        });
        continue;
      }
    }
    findings.push({
      code: 'scope-absent',
      message:
        `${path}: named by the change scope but missing from the diff — the packet would show ` +
        `only part of the change, and a verdict on it would pass for a review of the whole`,
    });
  }
  return { findings, covered };
}

/**
 * One finding per declared path the diff does not cover, in declared order. A path is
 * covered when the diff names it exactly; an abbreviated `.../tail` is covered by the single
 * diff path that equals `tail` or ends in `/tail`, and is ambiguous when several do.
 */
export function coverageFindings(declared: string[], diffPaths: string[]): Finding[] {
  return resolve(declared, diffPaths).findings;
}

/** The diff paths no declared path claimed, sorted by code point. Recorded, never refused. */
export function undeclaredPaths(declared: string[], diffPaths: string[]): string[] {
  return scopeCoverage(declared, diffPaths).undeclared;
}

/** Both answers from one pass: the refusing findings and the unclaimed diff paths. */
export function scopeCoverage(
  declared: string[],
  diffPaths: string[],
): { findings: Finding[]; undeclared: string[] } {
  const { findings, covered } = resolve(declared, diffPaths);
  return { findings, undeclared: sortedUnique(diffPaths.filter((p) => !covered.has(p))) };
}
