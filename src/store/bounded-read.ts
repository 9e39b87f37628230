// The one reader for files a repository can carry (agent configs, objectives, sidecars, lock
// and state files): a clone can put a FIFO, a device such as /dev/zero, or a huge file where a
// small file is expected, and none of them may hang or exhaust a command. Regular files only
// (links to one are followed, as the originals read through links), opened non-blocking so a
// FIFO is refused at once, and never read past the size cap even while the file grows.
import { closeSync, constants, fstatSync, openSync, readSync, type Stats } from 'node:fs';
import { MiB } from './limits';

/** Agent configs, objectives, sidecars: far bigger than any real one (a 50 MB TOML took 55 s to parse). */
export const SMALL_FILE_LIMIT = 1 * MiB;

/** A file that is not a regular file of at most the cap; the message is one line naming it. */
export class UnreadableFileError extends Error {
  constructor(
    readonly path: string,
    readonly reason: string,
    readonly missing = false,
  ) {
    super(`${path}: ${reason}`);
    this.name = 'UnreadableFileError';
  }
}

/** O_NONBLOCK does not exist on Windows, where opening a named pipe does not block anyway. */
const OPEN_FLAGS = constants.O_RDONLY | (constants.O_NONBLOCK ?? 0);

function kindOf(stat: Stats): string {
  if (stat.isDirectory()) return 'a folder';
  if (stat.isFIFO()) return 'a FIFO';
  if (stat.isSocket()) return 'a socket';
  if (stat.isCharacterDevice() || stat.isBlockDevice()) return 'a device';
  return 'not a regular file';
}

function openReason(code: string | undefined): string {
  switch (code) {
    case 'ENOENT':
      return 'no such file';
    case 'EACCES':
    case 'EPERM':
      return 'permission denied';
    case 'EISDIR':
      return 'is a folder, not a regular file';
    case 'ENXIO':
      return 'is a socket or a device, not a regular file';
    default:
      return `cannot read (${code ?? 'unreadable'})`;
  }
}

/** The bytes of the regular file `path`, at most `limit`; throws UnreadableFileError otherwise. */
export function readBoundedFile(path: string, limit: number = SMALL_FILE_LIMIT): Buffer {
  let fd: number;
  try {
    fd = openSync(path, OPEN_FLAGS);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    throw new UnreadableFileError(path, openReason(code), code === 'ENOENT');
  }
  try {
    const stat = fstatSync(fd);
    if (!stat.isFile()) throw new UnreadableFileError(path, `is ${kindOf(stat)}, not a regular file`);
    if (stat.size > limit)
      throw new UnreadableFileError(path, `is ${stat.size} bytes, over the ${limit}-byte limit`);
    // Read until end of file, never past limit + 1: a file that grows meanwhile is still capped.
    let buffer = Buffer.allocUnsafe(Math.min(stat.size + 1, limit + 1) || 1);
    let length = 0;
    for (;;) {
      if (length === buffer.length) {
        if (length > limit) throw new UnreadableFileError(path, `is over the ${limit}-byte limit`);
        const bigger = Buffer.allocUnsafe(Math.min(buffer.length * 2, limit + 1));
        buffer.copy(bigger, 0, 0, length);
        buffer = bigger;
      }
      const n = readSync(fd, buffer, length, buffer.length - length, null);
      if (n === 0) break;
      length += n;
    }
    if (length > limit) throw new UnreadableFileError(path, `is over the ${limit}-byte limit`);
    return buffer.subarray(0, length);
  } catch (error) {
    if (error instanceof UnreadableFileError) throw error;
    throw new UnreadableFileError(path, openReason((error as NodeJS.ErrnoException).code));
  } finally {
    closeSync(fd);
  }
}

/** readBoundedFile as UTF-8 text (invalid sequences become U+FFFD, as readFileSync gives them). */
export function readBoundedText(path: string, limit: number = SMALL_FILE_LIMIT): string {
  return readBoundedFile(path, limit).toString('utf8');
}

/** readBoundedFile, or undefined for any refusal: for optional files that read as absent. */
export function readBoundedOrUndefined(path: string, limit: number = SMALL_FILE_LIMIT): Buffer | undefined {
  try {
    return readBoundedFile(path, limit);
  } catch {
    return undefined;
  }
}
