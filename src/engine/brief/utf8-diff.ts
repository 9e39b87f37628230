// A diff kept as the UTF-8 bytes it was read as. A 20 MiB diff decoded into one string costs
// its size again (twice that once it holds one non-ASCII character); kept as bytes, it is read
// a chunk of whole lines at a time (for its blank check, its paths, its id) and each chunk is
// dropped when done. Every chunk ends after a \n or \r, which str.splitlines() breaks at too,
// so each chunk starts a line and the string rules (the path lines, the escapes) apply to it
// unchanged. An ASCII chunk (nearly every chunk of a real diff) goes to the WebAssembly
// scanner instead (diff-scan.ts), which implements the ASCII half of those rules; property tests
// hold them to the string rules (test/unit/engine/diff-scan.test.ts, brief-bytes.test.ts).
import { isAscii } from 'node:buffer';
import { ASCII_CHUNK_LIMIT, CHUNKED_TEXT, type ChunkedText, type JsonChunk } from '../chunked-text';
import { isPlain } from '../plain-pieces';
import { pyUniversalNewlines } from '../python-text';
import { diffScanner, type DiffScanner } from './diff-scan';

/** Chunks are about this many bytes: large enough that per-chunk costs vanish, small enough to stay in cache. */
const DIFF_CHUNK_BYTES = 1 << 16;
/**
 * Smaller diffs stay on the JavaScript path: setting the scanner up (its first use in a
 * process: ~1.5 ms, more on a busy machine) costs more than they save below about this size.
 */
const WASM_FROM_BYTES = 256 * 1024;
const LF = 0x0a;
const DEL = 0x7f;
const CR = 0x0d;

/** A Buffer view over the same memory (for the native searches), without copying. */
function bufferOf(bytes: Uint8Array): Buffer {
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
  const next = nextBreak(buf, start + size);
  return next === -1 ? buf.length : afterBreak(buf, next);
}

/**
 * The first \n or \r at or after `from`, or -1. Searched a window at a time: a search for
 * one kind of break over the rest of the diff (a diff with no \r at all) would read the rest
 * of the diff once per long line, quadratic in a diff of lines longer than a chunk.
 */
function nextBreak(buf: Buffer, from: number): number {
  for (let at = from; at < buf.length; at += DIFF_CHUNK_BYTES) {
    const window = buf.subarray(at, at + DIFF_CHUNK_BYTES);
    const lf = window.indexOf(LF);
    const cr = window.indexOf(CR);
    if (lf !== -1 || cr !== -1) return at + (cr === -1 || (lf !== -1 && lf < cr) ? lf : cr);
  }
  return -1;
}

/** Just past the break at `at` (a \r\n pair counts as one break). */
function afterBreak(buf: Buffer, at: number): number {
  return buf[at] === CR && buf[at + 1] === LF ? at + 2 : at + 1;
}

/** A chunk whose JSON escape now lies where its bytes were: `inPlace` bytes there, the rest in `overflow`. */
interface Escaped {
  start: number;
  end: number;
  inPlace: number;
  overflow: Buffer | null;
  plainAscii: boolean;
}

export interface Utf8DiffOptions {
  ascii?: boolean;
  chunkBytes?: number;
  overflowBudget?: number;
  wasmFrom?: number;
}

/**
 * The diff as validated UTF-8 bytes (byte-order mark removed), handed out in decoded chunks.
 *
 * The diff's escape is needed twice: for its id (before anything is printed: the sorted packet
 * prints `brief_id` before `diff`) and for the --json output. Keeping the escaped text between
 * the two would double the memory a 20 MiB diff takes; escaping it twice costs a pass. Instead the
 * first escape of each chunk is stored over the chunk's own bytes (the few bytes an escape adds
 * go to a small overflow buffer). From then on the chunk's text is the escape parsed back
 * (exact: JSON.parse undoes JSON.stringify; slower, so the brief reads the paths before the
 * id), and printing it is a plain write. So the diff's bytes belong to this object: it
 * overwrites them.
 *
 * A diff of control characters escapes to six times its size (`\u0001`), so the overflow has a
 * budget (a quarter of the diff; real diffs need a few per cent). Past it, the remaining chunks
 * stay as they are and are escaped again when printed: slower, never more memory.
 */
export class Utf8Diff implements ChunkedText {
  readonly [CHUNKED_TEXT] = true as const;
  private readonly buffer: Buffer;
  /** Chunks whose escape is stored, by their start. They always form a prefix of the diff. */
  private readonly escaped = new Map<number, Escaped>();
  private escapedEnd = 0;
  /** False once a chunk did not fit the overflow budget: no later chunk is stored. */
  private storing = true;
  private overflowBytes = 0;
  private readonly overflowBudget: number;
  private scratch = Buffer.alloc(0);
  /** Whether ASCII chunks go to the scanner (escaped there, their paths found in the same pass). */
  private readonly scans: boolean;
  /** The whole diff is ASCII (most are): no chunk needs its own check. */
  private readonly allAscii: boolean;

  private readonly chunkBytes: number;

  /**
   * `bytes` must be valid UTF-8 without the leading byte-order mark the text decoder strips
   * (read-input.ts utf8TextBytes); they are overwritten (see above). `ascii`: whether they are
   * all ASCII, when the reader already knows. `chunkBytes`, `overflowBudget` (bytes) and
   * `wasmFrom` (the smallest diff, in bytes, that the scanner takes) are for tests.
   */
  constructor(bytes: Uint8Array, options: Utf8DiffOptions = {}) {
    const { chunkBytes = DIFF_CHUNK_BYTES, overflowBudget, wasmFrom = WASM_FROM_BYTES } = options;
    if (!(chunkBytes >= 1)) throw new RangeError('chunk size must be at least one byte');
    this.chunkBytes = chunkBytes;
    this.buffer = bufferOf(bytes);
    this.overflowBudget = overflowBudget ?? Math.max(1 << 20, this.buffer.length >> 2);
    this.scans = this.buffer.length >= wasmFrom && !isPlain('diff-wasm') && diffScanner() !== null;
    this.allAscii = this.scans && (options.ascii ?? isAscii(this.buffer));
  }

  /**
   * The text Python's text mode reads (\r\n and \r as \n), a chunk at a time. Every chunk is
   * whole lines (the last one may lack its break), so each starts a line.
   */
  *chunks(): Generator<string> {
    for (let start = 0; start < this.buffer.length;) {
      const done = this.escaped.get(start);
      if (done) {
        yield this.storedText(done);
        start = done.end;
      } else {
        const end = chunkEnd(this.buffer, start, this.chunkBytes);
        yield this.decode(start, end);
        start = end;
      }
    }
  }

  get scansWithWasm(): boolean {
    return this.scans;
  }

  *textOrEscaped(): Generator<string | null> {
    for (let start = 0; start < this.buffer.length;) {
      const done = this.escaped.get(start);
      if (done) {
        yield this.storedText(done);
        start = done.end;
        continue;
      }
      const end = chunkEnd(this.buffer, start, this.chunkBytes);
      if (this.asciiAt(start, end)) {
        this.escapeAt(start);
        yield null;
      } else {
        yield this.decode(start, end);
      }
      start = end;
    }
  }

  /**
   * The text's JSON.stringify escape (quotes left out) as UTF-8 bytes, one chunk at a time: each
   * chunk's escape in one or two pieces (a piece may end inside a character; the chunk cannot).
   * The pieces are views that are only valid until the next step.
   */
  *jsonChunks(): Generator<JsonChunk> {
    for (let start = 0; start < this.buffer.length;) {
      const done = this.escaped.get(start);
      const { end, pieces, plainAscii } = done
        ? { end: done.end, pieces: this.storedEscape(done), plainAscii: done.plainAscii }
        : this.escapeAt(start);
      yield { pieces, plainAscii };
      start = end;
    }
  }

  text(): string {
    return [...this.chunks()].join('');
  }

  toJSON(): string {
    return this.text();
  }

  private decode(start: number, end: number): string {
    return pyUniversalNewlines(this.buffer.toString('utf8', start, end));
  }

  /** The chunk [start, end) (still its own bytes) when the scanner takes it: ASCII, not too big; else null. */
  private asciiAt(start: number, end: number): Buffer | null {
    if (!this.scans || end - start > ASCII_CHUNK_LIMIT) return null;
    const bytes = this.buffer.subarray(start, end);
    return this.allAscii || isAscii(bytes) ? bytes : null;
  }

  /** A stored chunk's text: its escape parsed back (exact: JSON.parse undoes JSON.stringify). */
  private storedText(chunk: Escaped): string {
    return JSON.parse(`"${Buffer.concat(this.storedEscape(chunk)).toString('utf8')}"`) as string;
  }

  private storedEscape(chunk: Escaped): Buffer[] {
    const inPlace = this.buffer.subarray(chunk.start, chunk.start + chunk.inPlace);
    return chunk.overflow ? [inPlace, chunk.overflow] : [inPlace];
  }

  /**
   * Escapes the chunk at `start` (still its own bytes). The escape is stored over the chunk when
   * the chunk extends the stored prefix and its overflow fits the budget; otherwise it is
   * returned in a scratch area, valid until the next call.
   */
  private escapeAt(start: number): { end: number; pieces: Uint8Array[]; plainAscii: boolean } {
    const end = chunkEnd(this.buffer, start, this.chunkBytes);
    const ascii = this.asciiAt(start, end);
    // The escape of ASCII is ASCII; without DEL it is also what Python's ensure_ascii writes.
    const plainAscii = ascii !== null && !ascii.includes(DEL);
    const escape = ascii ? (diffScanner() as DiffScanner).escape(ascii) : this.escapeInJs(start, end);
    const size = escape.length;
    const inPlace = Math.min(size, end - start);
    const extra = size - inPlace;
    if (!this.storing || start !== this.escapedEnd || this.overflowBytes + extra > this.overflowBudget) {
      this.storing = false;
      return { end, pieces: [escape], plainAscii };
    }
    escape.copy(this.buffer, start, 0, inPlace);
    const chunk: Escaped = {
      start,
      end,
      inPlace,
      overflow: extra > 0 ? Buffer.from(escape.subarray(inPlace, size)) : null,
      plainAscii,
    };
    this.escaped.set(start, chunk);
    this.escapedEnd = end;
    this.overflowBytes += extra;
    return { end, pieces: this.storedEscape(chunk), plainAscii };
  }

  /** The chunk's escape by JSON.stringify, in the scratch buffer (valid until the next call). */
  private escapeInJs(start: number, end: number): Buffer {
    const body = JSON.stringify(this.decode(start, end)).slice(1, -1);
    // Room for the worst case (3 bytes a unit) without measuring; a chunk that is one huge line
    // is measured instead, so it never needs three times its size.
    const room = body.length <= 1 << 20 ? 3 * body.length : Buffer.byteLength(body, 'utf8');
    if (this.scratch.length < room) this.scratch = Buffer.allocUnsafe(room);
    const size = this.scratch.write(body, 0, 'utf8');
    return this.scratch.subarray(0, size);
  }
}
