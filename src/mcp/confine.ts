// Every path a client names is resolved against the root and refused when its real path leaves
// the root: a client (or a prompt injected into it) must not read /etc/passwd as a "diff" or a
// contract through `../` or a symbolic link.
import { realpathSync } from 'node:fs';
import { isAbsolute, relative, resolve, sep } from 'node:path';

export class OutsideRoot extends Error {}

function inside(realRoot: string, path: string): boolean {
  const rel = relative(realRoot, path);
  return rel === '' || (!rel.startsWith(`..${sep}`) && rel !== '..' && !isAbsolute(rel));
}

function realOr(path: string): string | null {
  try {
    return realpathSync(path);
  } catch {
    return null;
  }
}

/**
 * The absolute path `given` names under `root`; throws OutsideRoot (naming the field) when it or
 * what it really is leaves the root. A path that does not exist yet is checked through its
 * nearest existing folder, so a symbolic link on the way cannot lead out either.
 */
export function confinedPath(root: string, given: string, field: string): string {
  const realRoot = realOr(root) ?? resolve(root);
  const absolute = resolve(root, given);
  if (!inside(resolve(root), absolute) && !inside(realRoot, absolute))
    throw new OutsideRoot(`${field}: ${JSON.stringify(given)} is outside the root ${root}`);
  let probe = absolute;
  let real = realOr(probe);
  while (real === null) {
    const up = resolve(probe, '..');
    if (up === probe) break;
    probe = up;
    real = realOr(probe);
  }
  if (real !== null && !inside(realRoot, real))
    throw new OutsideRoot(
      `${field}: ${JSON.stringify(given)} leads to ${real}, outside the root's real path ${realRoot}`,
    );
  return absolute;
}
