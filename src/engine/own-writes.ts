// Which paths are Loop Ledger's own writes: everything under the `.loop/` folder at the
// workspace root (ledgers, run folders, repeat state, briefs). A change under review never
// includes them — a ledger rewritten by the brief itself is bookkeeping, not the change — so
// the harness, repeat and the brief all leave them out by this one rule.

/** The folder, at the workspace root, that Loop Ledger writes into. */
export const OWN_FOLDER = '.loop';

/**
 * Whether a repository-relative path (`/` or `\` separated) is one of Loop Ledger's own writes.
 * `rootPrefix` is the workspace root's own path inside the repository (`git rev-parse
 * --show-prefix`: `''` at the top, else `sub/dir/`), since git names paths from the top.
 */
export function isOwnWrite(path: string, rootPrefix = ''): boolean {
  const p = path.replace(/\\/g, '/');
  return p.startsWith(`${rootPrefix}${OWN_FOLDER}/`);
}
