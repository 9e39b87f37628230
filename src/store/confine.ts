// The one way Loop Ledger's drivers write a file: never outside the real path of the folder the
// file belongs under (the workspace root, a task's work-orders folder), never through a link.
// A cloned repository can carry `.loop/runs`, `.loop/repeat` or `loop-obs.ndjson` as a symbolic
// link to a place elsewhere; a write through it would land outside the workspace. Folders that
// do not exist yet are made by us, as real folders; files are replaced by rename (atomic-write)
// or appended to with O_NOFOLLOW, so the last step cannot follow a link either.
import { closeSync, constants, fstatSync, lstatSync, mkdirSync, openSync, writeSync } from 'node:fs';
import { resolve } from 'node:path';
import { writeFileAtomicSync } from './atomic-write';
import { folderOutsideRoot } from './paths';

/** A write that would leave its root or go through a link; the message is one line naming the file. */
export class OutsideRootError extends Error {
  constructor(
    readonly path: string,
    reason: string,
  ) {
    super(`${path}: ${reason}`);
    this.name = 'OutsideRootError';
  }
}

/**
 * Throws OutsideRootError unless writing `target` stays under the real path of `root`: its
 * folder resolves inside the root, and the file itself is absent or a regular file (not a link,
 * a FIFO or a device). `folderOnly`: the caller replaces the file by rename, which never
 * follows what is in its place, so only the folder is checked.
 */
export function confineWrite(root: string, target: string, options: { folderOnly?: boolean } = {}): void {
  const path = resolve(target);
  const where = folderOutsideRoot(root, path);
  if (typeof where === 'string') throw new OutsideRootError(path, where);
  if (where !== null)
    throw new OutsideRootError(
      path,
      `its folder leads to ${where.resolved}, outside the real path ${where.realRoot}; Loop Ledger writes only under it (is a folder on the way a symbolic link?)`,
    );
  if (options.folderOnly) return;
  let stat;
  try {
    stat = lstatSync(path);
  } catch {
    return; // absent: we create it
  }
  if (stat.isSymbolicLink())
    throw new OutsideRootError(path, 'is a symbolic link; Loop Ledger does not write through links');
  if (!stat.isFile() && !stat.isDirectory())
    throw new OutsideRootError(path, 'is not a regular file (a FIFO, a socket or a device); move it away');
}

/** mkdir -p of `dir`, after checking it resolves under `root` (see confineWrite). */
export function makeDirConfined(root: string, dir: string): void {
  confineWrite(root, dir);
  mkdirSync(dir, { recursive: true });
}

/** writeFileAtomicSync of `target`, confined to `root`. */
export function writeFileConfined(root: string, target: string, data: string): void {
  confineWrite(root, target);
  writeFileAtomicSync(target, data);
}

const APPEND_FLAGS =
  constants.O_WRONLY |
  constants.O_APPEND |
  constants.O_CREAT |
  (constants.O_NOFOLLOW ?? 0) |
  (constants.O_NONBLOCK ?? 0);

/**
 * Appends `text` to `target`, confined to `root`: opened with O_NOFOLLOW (a link is refused,
 * not followed) and O_NONBLOCK (a FIFO never blocks), and written only if it is a regular file.
 */
export function appendConfined(root: string, target: string, text: string): void {
  confineWrite(root, target);
  let fd: number;
  try {
    fd = openSync(target, APPEND_FLAGS, 0o666);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ELOOP')
      throw new OutsideRootError(
        resolve(target),
        'is a symbolic link; Loop Ledger does not write through links',
      );
    if (code === 'ENXIO')
      throw new OutsideRootError(
        resolve(target),
        'is not a regular file (a FIFO, a socket or a device); move it away',
      );
    throw error;
  }
  try {
    if (!fstatSync(fd).isFile())
      throw new OutsideRootError(
        resolve(target),
        'is not a regular file (a FIFO, a socket or a device); move it away',
      );
    const bytes = Buffer.from(text, 'utf8');
    for (let done = 0; done < bytes.length;) done += writeSync(fd, bytes, done, bytes.length - done);
  } finally {
    closeSync(fd);
  }
}
