// Reading the files a command names. Every failure becomes a one-line reason; the command
// decides the exit code (2 for a contract, 8 for brief inputs and baseline transcripts).
//
// Any kind of file is read to its end under the size cap, by the store's capped reader in the
// mode that takes pipes, FIFOs and devices (src/store/bounded-read.ts); here its bytes become
// text, or the reason they cannot.
import { isAscii, isUtf8 } from 'node:buffer';
import {
  FIFO_WAIT_ENV,
  overLimitReason,
  readBoundedStream,
  UnreadableFileError,
} from '../store/bounded-read';
import { MiB } from '../store/limits';

export type ReadResult =
  | {
      path: string;
      text: string;
      /** The size read, in bytes, and whether it was a regular file (for a caller's own, smaller cap). */
      bytes: number;
      regular: boolean;
    }
  | {
      path: string;
      error: string;
      /** Set when the file is over the limit: its size when known (a regular file), else null. */
      tooLarge?: { size: number | null };
    };

/** Bigger than any real contract; a 10 MB "contract" is refused before it is parsed. */
export const CONTRACT_LIMIT = 1 * MiB;
/** Diffs, verification output and transcripts: a 20 MB diff is ordinary, 256 MB is not. */
export const INPUT_LIMIT = 256 * MiB;
/** Where callers and tests have always found them. */
export { FIFO_WAIT_ENV, overLimitReason };

const utf8 = new TextDecoder('utf-8', { fatal: true });
/** Keeps a leading byte-order mark in the text (loop-engineering contracts: the original reads it as text). */
const utf8KeepingBom = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

/** readBoundedStream, or the one-line reason it failed (readTextFile's and readUtf8File's first step). */
function readBytesOrReason(
  path: string,
  limit: number,
): { bytes: Buffer; regular: boolean } | Extract<ReadResult, { error: string }> {
  try {
    return readBoundedStream(path, limit);
  } catch (error) {
    if (!(error instanceof UnreadableFileError)) throw error;
    return error.tooLarge
      ? { path, error: error.reason, tooLarge: error.tooLarge }
      : { path, error: error.reason };
  }
}

/** The UTF-8 text of `path`, whatever kind of file it is, or why it cannot be had. */
export function readTextFile(
  path: string,
  limit: number,
  options: { keepByteOrderMark?: boolean } = {},
): ReadResult {
  const read = readBytesOrReason(path, limit);
  if ('error' in read) return read;
  try {
    const decoder = options.keepByteOrderMark ? utf8KeepingBom : utf8;
    return { path, text: decoder.decode(read.bytes), bytes: read.bytes.length, regular: read.regular };
  } catch {
    return { path, error: 'is not valid UTF-8 text' };
  }
}

export type Utf8ReadResult = { path: string; utf8: Buffer; ascii: boolean } | { path: string; error: string };

const BYTE_ORDER_MARK = [0xef, 0xbb, 0xbf];

/**
 * The bytes of `path` when they are UTF-8 text, for a caller that reads a big text without
 * decoding it (`brief`'s diff): refused exactly as readTextFile refuses, and `utf8` holds the
 * bytes of readTextFile's text: validated as UTF-8 (`isUtf8` accepts what the fatal decoder
 * accepts), with the one leading byte-order mark the decoder strips removed.
 */
export function readUtf8File(path: string, limit: number): Utf8ReadResult {
  const read = readBytesOrReason(path, limit);
  if ('error' in read) return { path, error: read.error };
  // ASCII is UTF-8, and most diffs are ASCII: one check tells the engine and spares the other.
  if (isAscii(read.bytes)) return { path, utf8: read.bytes, ascii: true };
  const utf8 = utf8TextBytes(read.bytes);
  return utf8 === null ? { path, error: 'is not valid UTF-8 text' } : { path, utf8, ascii: false };
}

/**
 * The bytes of the text readTextFile's decoder would give (`decode(bytes)` as UTF-8 equals
 * `decode(utf8TextBytes(bytes))` keeping any mark), or null where it would refuse them.
 */
export function utf8TextBytes(bytes: Buffer): Buffer | null {
  if (!isUtf8(bytes)) return null;
  const bom = BYTE_ORDER_MARK.every((byte, i) => bytes[i] === byte);
  return bom ? bytes.subarray(BYTE_ORDER_MARK.length) : bytes;
}
