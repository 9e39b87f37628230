// Reading the files a command names. Every failure becomes a one-line reason; the command
// decides the exit code (2 for a contract, 8 for brief inputs and baseline transcripts).
import { closeSync, fstatSync, openSync, readSync } from 'node:fs';

export type ReadResult = { path: string; text: string } | { path: string; error: string };

const MiB = 1024 * 1024;
/** Bigger than any real contract; a 10 MB "contract" is refused before it is parsed. */
export const CONTRACT_LIMIT = 1 * MiB;
/** Diffs, verification output and transcripts: a 20 MB diff is ordinary, 256 MB is not. */
export const INPUT_LIMIT = 256 * MiB;

const utf8 = new TextDecoder('utf-8', { fatal: true });
/** Keeps a leading byte-order mark in the text (loop-engineering contracts: the original reads it as text). */
const utf8KeepingBom = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

export function readTextFile(
  path: string,
  limit: number,
  options: { keepByteOrderMark?: boolean } = {},
): ReadResult {
  let fd: number | undefined;
  try {
    fd = openSync(path, 'r');
    const stat = fstatSync(fd);
    if (stat.isDirectory()) return { path, error: 'is a directory' };
    if (stat.size > limit) return { path, error: `is ${stat.size} bytes, over the ${limit}-byte limit` };
    const buffer = Buffer.allocUnsafe(stat.size);
    let offset = 0;
    while (offset < stat.size) {
      const n = readSync(fd, buffer, offset, stat.size - offset, null);
      if (n === 0) break;
      offset += n;
    }
    try {
      const decoder = options.keepByteOrderMark ? utf8KeepingBom : utf8;
      return { path, text: decoder.decode(buffer.subarray(0, offset)) };
    } catch {
      return { path, error: 'is not valid UTF-8 text' };
    }
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    const why =
      code === 'ENOENT' ? 'no such file' : code === 'EACCES' ? 'permission denied' : (code ?? 'unreadable');
    return { path, error: why };
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}
