// Run ids: `YYYYMMDDTHHMMSSZ-<slug>` (UTC), the slug taken from the objective.
import { basicUtc } from '../utc-iso';

/** Lower-cased, runs of non-alphanumerics to `-`, trimmed of `-`, at most 48 characters, `loop` if empty. */
export function objectiveSlug(objective: string): string {
  const value = objective
    .trim()
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '');
  return (value || 'loop').slice(0, 48);
}

export function runIdBase(objective: string, now: Date): string {
  const stamp = basicUtc(now.getTime());
  return `${stamp}-${objectiveSlug(objective)}`;
}

/** The first of `base`, `base-2`, `base-3`… that `taken` does not report. */
export function uniqueRunId(base: string, taken: (candidate: string) => boolean): string {
  if (!taken(base)) return base;
  for (let i = 2; ; i++) {
    const candidate = `${base}-${i}`;
    if (!taken(candidate)) return candidate;
  }
}
