// The JSON a command prints, written piece by piece. The text is exactly
// `JSON.stringify(sortKeysDeep(payload), null, 2)`, but a payload carrying a 20 MiB diff never
// becomes one 20 MiB string (nor its 20 MiB UTF-8 copy): a long string is escaped in slices,
// and the output leaves in chunks of about CHUNK bytes. That keeps `brief --json`'s peak memory
// near the size of the diff it holds anyway, and its garbage small.

import { isChunkedText, type ChunkedText } from '../engine/chunked-text';

/** Pieces are gathered up to about this many UTF-16 units before one write. */
const CHUNK = 1 << 16;
/** Strings longer than this are escaped slice by slice rather than in one go. */
const SLICE = 1 << 16;

/** Receives each chunk; the buffer is reused afterwards, so a sink that keeps it must copy it. */
type Sink = (bytes: Buffer) => void;

/**
 * Gathers pieces and hands them to `sink` as buffers of about CHUNK bytes. One buffer is
 * reused for every chunk (the sink must be done with it when it returns): a fresh buffer per
 * chunk would pile up as external memory until a garbage collection happened to free it.
 */
class ChunkedWriter {
  private pieces: string[] = [];
  private length = 0;
  private buffer = Buffer.allocUnsafe(4 * CHUNK);

  constructor(private readonly sink: Sink) {}

  write(piece: string): void {
    this.pieces.push(piece);
    this.length += piece.length;
    if (this.length >= CHUNK) this.flush();
  }

  /** Bytes written as they are (after what is pending); the sink sees them before this returns. */
  writeBytes(bytes: Uint8Array): void {
    this.flush();
    if (bytes.length > 0)
      this.sink(Buffer.isBuffer(bytes) ? bytes : Buffer.from(bytes.buffer, bytes.byteOffset, bytes.length));
  }

  flush(): void {
    if (this.length === 0) return;
    const text = this.pieces.length === 1 ? (this.pieces[0] as string) : this.pieces.join('');
    this.pieces = [];
    this.length = 0;
    const size = Buffer.byteLength(text, 'utf8');
    if (size > this.buffer.length) this.buffer = Buffer.allocUnsafe(size);
    this.buffer.write(text, 0, size, 'utf8');
    this.sink(this.buffer.subarray(0, size));
  }
}

function isHighSurrogate(code: number): boolean {
  return code >= 0xd800 && code <= 0xdbff;
}

/**
 * A string's JSON text, quotes included. A long one is escaped in slices; a slice never ends
 * between the two halves of a surrogate pair, which JSON.stringify would print as two `\udXXX`
 * escapes instead of the character itself.
 */
function writeString(s: string, out: ChunkedWriter): void {
  if (s.length <= SLICE) {
    out.write(JSON.stringify(s));
    return;
  }
  out.write('"');
  for (let start = 0; start < s.length;) {
    let end = Math.min(start + SLICE, s.length);
    if (end < s.length && isHighSurrogate(s.charCodeAt(end - 1))) end -= 1;
    const quoted = JSON.stringify(s.slice(start, end));
    out.write(quoted.slice(1, -1));
    start = end;
  }
  out.write('"');
}

/** A text handed out in chunks (a diff kept as bytes), printed as the one string it stands for. */
function writeChunkedText(text: ChunkedText, out: ChunkedWriter): void {
  out.write('"');
  // No chunk ends inside a surrogate pair, so each chunk's escape is that part of the whole's.
  for (const { pieces } of text.jsonChunks()) for (const bytes of pieces) out.writeBytes(bytes);
  out.write('"');
}

/** Values JSON.stringify leaves out of an object (and prints as null in an array). */
function isSkipped(value: unknown): boolean {
  return value === undefined || typeof value === 'function' || typeof value === 'symbol';
}

const INDEX_KEY = /^(?:0|[1-9]\d{0,9})$/;

/** An array-index key ("0" … "4294967294"): objects list these first, in numeric order. */
function isIndexKey(key: string): boolean {
  return INDEX_KEY.test(key) && Number(key) < 2 ** 32 - 1;
}

/**
 * The order JSON.stringify prints a sortKeysDeep copy in: the object it builds lists its
 * index-like keys first, ascending as numbers, then the others in the order they were sorted.
 */
function printedKeyOrder(record: object): string[] {
  const keys = Object.keys(record).sort();
  const indexes = keys.filter(isIndexKey);
  if (indexes.length === 0) return keys;
  return [...indexes.sort((a, b) => Number(a) - Number(b)), ...keys.filter((k) => !isIndexKey(k))];
}

/** Every item a string no longer than SLICE, a number, a boolean or null (no holes). */
function isShortPrimitives(list: unknown[]): boolean {
  for (let i = 0; i < list.length; i += 1) {
    const item = list[i];
    const type = typeof item;
    if (type === 'string') {
      if ((item as string).length > SLICE) return false;
    } else if (type !== 'number' && type !== 'boolean' && item !== null) return false;
  }
  return true;
}

/** Items of a long list of short values stringified per native call (see writeShortPrimitives). */
const LIST_SLICE = 1024;

/**
 * A list of short plain values (10,000 completed actions, a diff's 17,000 paths): one native
 * stringify per LIST_SLICE items is several times faster than visiting each item, and prints
 * the same. Slices keep each string small; the whole list in one string (a megabyte, twice over
 * once indented) would land in V8's large-object space and add its size to the peak memory.
 */
function writeShortPrimitives(list: unknown[], indent: string, out: ChunkedWriter): void {
  if (list.length > LIST_SLICE && writePlainStrings(list, indent, out)) return;
  if (list.length <= LIST_SLICE) {
    out.write(JSON.stringify(list, null, 2).replaceAll('\n', `\n${indent}`));
    return;
  }
  for (let start = 0; start < list.length; start += LIST_SLICE) {
    // `[\n  a,\n  b\n]` without its brackets is `\n  a,\n  b`: the slice's lines as the whole prints them.
    const text = JSON.stringify(list.slice(start, start + LIST_SLICE), null, 2);
    const lines = text.slice(1, -2).replaceAll('\n', `\n${indent}`);
    out.write(start === 0 ? `[${lines}` : `,${lines}`);
  }
  out.write(`\n${indent}]`);
}

/** A character JSON.stringify escapes in a string (a surrogate only when lone; any is enough here). */
// eslint-disable-next-line no-control-regex -- control characters are what JSON escapes
const ESCAPED_IN_JSON = /["\\\u0000-\u001f\ud800-\udfff]/;

/**
 * A long list of strings none of which JSON.stringify escapes (a diff's paths, nearly always):
 * each prints as itself in quotes, so one join prints them all. False, writing nothing, for
 * any other list.
 */
function writePlainStrings(list: unknown[], indent: string, out: ChunkedWriter): boolean {
  if (!list.every((item) => typeof item === 'string')) return false;
  const strings = list as string[];
  if (ESCAPED_IN_JSON.test(strings.join(''))) return false;
  const inner = `${indent}  `;
  for (let start = 0; start < strings.length; start += LIST_SLICE) {
    const slice = strings.slice(start, start + LIST_SLICE).join(`",\n${inner}"`);
    out.write(start === 0 ? `[\n${inner}"${slice}"` : `,\n${inner}"${slice}"`);
  }
  out.write(`\n${indent}]`);
  return true;
}

function writeValue(value: unknown, indent: string, out: ChunkedWriter): void {
  if (typeof value === 'string') {
    writeString(value, out);
    return;
  }
  if (isChunkedText(value)) {
    writeChunkedText(value, out);
    return;
  }
  if (value === null || typeof value !== 'object') {
    // Numbers (NaN and ±Infinity become null), booleans, null; a bigint throws as it would.
    out.write(JSON.stringify(value));
    return;
  }
  const inner = indent + '  ';
  if (Array.isArray(value)) {
    if (isShortPrimitives(value)) {
      writeShortPrimitives(value, indent, out);
      return;
    }
    if (value.length === 0) {
      out.write('[]');
      return;
    }
    out.write('[');
    for (let i = 0; i < value.length; i += 1) {
      out.write(i === 0 ? `\n${inner}` : `,\n${inner}`);
      const item: unknown = value[i];
      if (isSkipped(item)) out.write('null');
      else writeValue(item, inner, out);
    }
    out.write(`\n${indent}]`);
    return;
  }
  const record = value as Record<string, unknown>;
  let first = true;
  for (const key of printedKeyOrder(record)) {
    const item = record[key];
    if (isSkipped(item)) continue;
    out.write(first ? `{\n${inner}` : `,\n${inner}`);
    first = false;
    writeString(key, out);
    out.write(': ');
    writeValue(item, inner, out);
  }
  out.write(first ? '{}' : `\n${indent}}`);
}

/**
 * Writes `JSON.stringify(sortKeysDeep(payload), null, 2) + '\n'` to `sink` in chunks, for the
 * plain data payloads are: objects print their own enumerable keys in sortKeysDeep's order
 * (see printedKeyOrder; no toJSON), arrays their items with holes and undefined as null. A
 * ChunkedText prints as the string it stands for (what its toJSON returns).
 */
export function writeJson(payload: unknown, sink: Sink): void {
  const out = new ChunkedWriter(sink);
  writeValue(payload, '', out);
  out.write('\n');
  out.flush();
}

/** The whole text at once, for tests and small payloads: writeJson's chunks joined. */
export function jsonText(payload: unknown): string {
  const chunks: Buffer[] = [];
  writeJson(payload, (b) => chunks.push(Buffer.from(b)));
  return Buffer.concat(chunks).toString('utf8');
}
