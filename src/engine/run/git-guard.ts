// What an agent can change in a repository without touching a tracked or untracked file: the
// commits (a coder that commits an out-of-scope file leaves a clean working tree), git's own
// configuration, hooks and info (a hook runs later as the user; `.git/info/exclude` hides a new
// file from status), and the index flags skip-worktree / assume-unchanged (hide an edit to a
// tracked file). The driver reads these facts around every agent and check; every change is a
// scope violation, whatever the allowed globs say.

export interface GitGuardFacts {
  /** Digest of each watched part of the git folder (`.git/config`, `.git/hooks`, `.git/info`). */
  parts: Record<string, string>;
  /** Index entries flagged skip-worktree or assume-unchanged (outside `.loop/`). */
  hidden: string[];
}

/** One line per change between two readings: `<what> changed by <who>`. */
export function guardViolations(before: GitGuardFacts, after: GitGuardFacts, who: string): string[] {
  const found: string[] = [];
  for (const [part, digest] of Object.entries(after.parts)) {
    if (before.parts[part] !== digest) found.push(`${part} changed by ${who}`);
  }
  const had = new Set(before.hidden);
  for (const path of after.hidden) {
    if (!had.has(path))
      found.push(`${path} hidden from git status (skip-worktree/assume-unchanged) by ${who}`);
  }
  return found;
}

/** The path a violation names (the part of the git folder, or the hidden file), for changed_files. */
export function violationPath(violation: string): string {
  return violation.replace(/ (changed|hidden from git status) .*$/, '');
}
