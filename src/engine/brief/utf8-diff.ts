// A diff kept as the UTF-8 bytes it was read as. A 20 MiB diff decoded into one string costs
// its size again (twice that once it holds one non-ASCII character); kept as bytes, it is
// decoded a chunk of whole lines at a time whenever it is read (for its paths, its id, its
// --json text) and each chunk is dropped when done. Every chunk ends after a \n or \r, which
// str.splitlines() breaks at too, so each chunk starts a line and the string rules (the path
// reader, the escapes) apply to it unchanged: there is no second set of rules for bytes.
import { CHUNKED_TEXT, type ChunkedText } from '../chunked-text';
import { pyUniversalNewlines } from '../python-text';

/** Chunks are about this many bytes: large enough that per-chunk costs vanish, small enough to stay in cache. */
export const DIFF_CHUNK_BYTES = 1 << 16;
const LF = 0x0a;
const CR = 0x0d;

/** A Buffer view over the same memory (for the native searches), without copying. */
export function bufferOf(bytes: Uint8Array): Buffer {
  return Buffer.isBuffer(bytes) ? bytes : Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
}

/**
 * Where the chunk that starts at `start` (a line start) ends: after the last line break
 * within `size` bytes, so that the next chunk starts a line too, or, for a line longer than
 * that, after the line's own break. Cut after a break, a chunk never ends inside a UTF-8
 * character, nor between the \r and \n of one break (each half alone would become a \n).
 */
function chunkEnd(buf: Buffer, start: number, size: number): number {
  if (buf.length - start <= size) return buf.length;
  const window = buf.subarray(start, start + size); // bounds the backward searches
  const lf = window.lastIndexOf(LF);
  if (lf !== -1) return start + lf + 1;
  const cr = window.lastIndexOf(CR);
  if (cr !== -1) return afterBreak(buf, start + cr);
  const nextLf = buf.indexOf(LF, start + size);
  const nextCr = buf.indexOf(CR, start + size);
  if (nextLf === -1 && nextCr === -1) return buf.length;
  return afterBreak(buf, nextCr === -1 || (nextLf !== -1 && nextLf < nextCr) ? nextLf : nextCr);
}

/** Just past the break at `at` (a \r\n pair counts as one break). */
function afterBreak(buf: Buffer, at: number): number {
  return buf[at] === CR && buf[at + 1] === LF ? at + 2 : at + 1;
}

/** The diff as validated UTF-8 bytes (byte-order mark removed), handed out in decoded chunks. */
export class Utf8Diff implements ChunkedText {
  readonly [CHUNKED_TEXT] = true as const;
  readonly buffer: Buffer;

  /**
   * `bytes` must be valid UTF-8 without the leading byte-order mark the text decoder strips
   * (read-input.ts utf8TextBytes). `chunkBytes` is injectable for tests.
   */
  constructor(
    bytes: Uint8Array,
    private readonly chunkBytes = DIFF_CHUNK_BYTES,
  ) {
    if (!(chunkBytes >= 1)) throw new RangeError('chunk size must be at least one byte');
    this.buffer = bufferOf(bytes);
  }

  get byteLength(): number {
    return this.buffer.length;
  }

  /**
   * The text Python's text mode reads (\r\n and \r as \n), a chunk at a time. Every chunk is
   * whole lines (the last one may lack its break), so each starts a line.
   */
  *chunks(): Generator<string> {
    const { buffer } = this;
    for (let start = 0; start < buffer.length;) {
      const end = chunkEnd(buffer, start, this.chunkBytes);
      yield pyUniversalNewlines(buffer.toString('utf8', start, end));
      start = end;
    }
  }

  text(): string {
    return pyUniversalNewlines(this.buffer.toString('utf8'));
  }

  toJSON(): string {
    return this.text();
  }
}
