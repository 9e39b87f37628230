// A long text that is never held as one string: whoever escapes, hashes or prints it asks for
// its pieces one at a time. The brand is a registered symbol (not a class) so a bundle that did
// not create the value still recognises it.

export const CHUNKED_TEXT: unique symbol = Symbol.for('loop-ledger.ChunkedText');

/** A chunk of ASCII text up to this many bytes may go to the WebAssembly scanner. */
export const ASCII_CHUNK_LIMIT = 256 * 1024;

/** One chunk's JSON escape (see ChunkedText.jsonChunks). */
export interface JsonChunk {
  pieces: Uint8Array[];
  /**
   * True when the pieces are known to be ASCII without DEL, so that Python's ensure_ascii
   * escape is the same bytes; false when unknown.
   */
  plainAscii: boolean;
}

export interface ChunkedText {
  readonly [CHUNKED_TEXT]: true;
  /**
   * The text in order, in pieces that together are exactly the text. Each piece is whole lines
   * (it ends after a line break, or at the text's end; never between a \r and its \n), so the
   * line rules (the diff's paths) read each on its own, and no piece ends between the two halves
   * of a surrogate pair, so each may be escaped on its own.
   */
  chunks(): Iterable<string>;
  /**
   * The text's JSON.stringify escape (quotes left out) as UTF-8 bytes: for each chunk, the
   * pieces its escape is held in (a piece may end inside a character; a chunk's pieces cannot).
   */
  jsonChunks(): Iterable<JsonChunk>;
  /** Whether ASCII chunks go to the WebAssembly scanner (engine/brief/diff-scan.ts diffScanner()). */
  readonly scansWithWasm: boolean;
  /**
   * The chunks of chunks(), except that a chunk the scanner takes (ASCII, not yet escaped) is
   * escaped by them now, as jsonChunks would, and comes as null: while the scanner keeps paths
   * (DiffScanner.beginPaths), that chunk's paths are kept on the way.
   */
  textOrEscaped(): Iterable<string | null>;
  /** The whole text as one string (for a caller that truly needs it; costs its full size). */
  text(): string;
  /** Serialises as the text it stands for, so a plain JSON.stringify still prints the text. */
  toJSON(): string;
}

export function isChunkedText(value: unknown): value is ChunkedText {
  return (
    typeof value === 'object' &&
    value !== null &&
    (value as { [CHUNKED_TEXT]?: unknown })[CHUNKED_TEXT] === true
  );
}

/** The text of a string or a chunked text. */
export function wholeText(value: string | ChunkedText): string {
  return typeof value === 'string' ? value : value.text();
}
