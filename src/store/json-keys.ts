// The proof that no object of a ledger's JSON holds a key twice, from the file's bytes, by the
// WebAssembly pass of json-keys.wat. It answers only "proved" or "not proved": the exact check
// (json-scan.ts) runs whenever it is not proved, and names the repeated key when there is one.
// The same pass also writes what it reads without its blanks (KeysPass.compactAt): the
// record-by-record read of another writer's ledger (ledger-sliced.ts) parses and keeps that form.
//
// Why: on a ledger another writer laid out (the original engine's first touch, a hand edit) the
// JavaScript check walks the text and the parsed value while V8 has not yet optimised either
// loop — at 1,000 records most of what `status` spends after the parse. A byte loop in
// WebAssembly runs at full speed from its first byte.
import { isPlain } from '../engine/plain-pieces';
import { JSON_KEYS_WASM } from './json-keys-wasm';

interface KeysExports {
  memory: WebAssembly.Memory;
  reset(): void;
  scan(p: number, len: number): number;
  compact(p: number, len: number, out: number, limit: number, ends: number): number;
  records(): void;
}

/** Where the caller's chunk goes in the module's memory, and how big a chunk may be. */
const CHUNK_AT = 81920;
const CHUNK_BYTES = 6 * 65536 - CHUNK_AT;
/** Where a caller's own bytes go (KeysPass.room): past the chunk, so `add` never overwrites them. */
const FREE_AT = 6 * 65536;
const PAGE_BYTES = 65536;

let instance: KeysExports | null | undefined;

/** The module, instantiated once per process; null where this runtime cannot run it. */
function keysScanner(): KeysExports | null {
  if (instance === undefined) {
    try {
      const module = new WebAssembly.Module(Buffer.from(JSON_KEYS_WASM, 'base64'));
      instance = new WebAssembly.Instance(module, {}).exports as unknown as KeysExports;
    } catch {
      instance = null; // no WebAssembly here: the JavaScript check does the work
    }
  }
  return instance;
}

/**
 * True when `bytes` — UTF-8 JSON that JSON.parse accepted — provably holds no object with a
 * repeated key; false when that is not proved (a repeated key, a key with an escape, an object
 * of over 64 keys, deep nesting, or no WebAssembly): then the exact check must decide.
 */
export function keysProvedUnique(bytes: Uint8Array): boolean {
  const proof = keysPass();
  return proof !== null && proof.add(bytes) && proof.proved();
}

/** The proof over a text given in pieces, in order, each copied into the module's memory. */
interface KeysProof {
  /** Feeds the next piece; false once the proof has failed (it then stays failed). */
  add(piece: Uint8Array): boolean;
  /** Whether every piece fed so far, together JSON that JSON.parse accepted, is proved. */
  proved(): boolean;
}

/**
 * The proof over pieces the caller places in the module's memory itself (no copy), which can
 * also write a piece without its blanks (json-keys.wat's `compact`). Positions count from the
 * start of room()'s view.
 */
export interface KeysPass extends KeysProof {
  /**
   * The caller's part of the module's memory, at least `length` bytes long (grown when it is
   * shorter). Growing detaches every view taken before: take them again after each call.
   */
  room(length: number): Buffer;
  /** Feeds the piece at [at, at + length) of the room: add's answer, without the copy. */
  scanAt(at: number, length: number): boolean;
  /**
   * Feeds the piece at [at, at + length) and writes it without its blanks from `out` on, never
   * at or past `limit` (out + length + 16 <= limit; never over the piece). Where the writing
   * ended, or -1 when the proof failed here or before, or the piece holds a byte of 0x80 or more
   * or a dropped blank that joined two words (then it is not the same JSON), or the records laid
   * out would pass `limit`. After `records()`, `ends` is where the piece's table goes (see
   * `ended`; 12 bytes and 2 per byte of the piece).
   */
  compactAt(at: number, length: number, out: number, limit: number, ends: number): number;
  /** The text fed so far ends inside the records' list (its `[` fed): compactAt lays them out. */
  records(): void;
  /**
   * The table compactAt wrote at `ends`: `k` 0 how many records ended in the piece; 1 where the
   * piece stopped (the `]` that closes the list), or -1 when it was read to its end; from 2 on,
   * where each record's laid-out form ends.
   */
  ended(ends: number, k: number): number;
  /**
   * Gives the memory to the caller for good (views over it stay valid): the next proof starts a
   * new module. For views that outlive the read, and to let a grown memory go.
   */
  release(): void;
}

/** A proof to feed, or null where there is none (the plain variant, no WebAssembly). One at a time. */
export function keysPass(): KeysPass | null {
  if (isPlain('keys-wasm')) return null;
  const scanner = keysScanner();
  if (scanner === null) return null;
  scanner.reset();
  let ok = true;
  const add = (bytes: Uint8Array): boolean => {
    try {
      const memory = new Uint8Array(scanner.memory.buffer);
      for (let at = 0; ok && at < bytes.length; at += CHUNK_BYTES) {
        const chunk = bytes.subarray(at, Math.min(at + CHUNK_BYTES, bytes.length));
        memory.set(chunk, CHUNK_AT);
        if (scanner.scan(CHUNK_AT, chunk.length) !== 0) ok = false;
      }
    } catch {
      ok = false; // text JSON.parse did not accept (not this proof's input): not proved
    }
    return ok;
  };
  const room = (length: number): Buffer => {
    const missing = FREE_AT + length - scanner.memory.buffer.byteLength;
    if (missing > 0) scanner.memory.grow(Math.ceil(missing / PAGE_BYTES));
    const buffer = scanner.memory.buffer;
    return Buffer.from(buffer, FREE_AT, buffer.byteLength - FREE_AT);
  };
  const scanAt = (at: number, length: number): boolean => {
    try {
      if (ok && scanner.scan(FREE_AT + at, length) !== 0) ok = false;
    } catch {
      ok = false;
    }
    return ok;
  };
  const compactAt = (at: number, length: number, out: number, limit: number, ends: number): number => {
    if (!ok) return -1;
    try {
      const end = scanner.compact(FREE_AT + at, length, FREE_AT + out, FREE_AT + limit, FREE_AT + ends);
      if (end >= 0) return end - FREE_AT;
    } catch {
      // text JSON.parse would not accept, or a piece outside the memory: not proved
    }
    ok = false;
    return -1;
  };
  let table = new Int32Array(0);
  const ended = (ends: number, k: number): number => {
    if (table.buffer !== scanner.memory.buffer) table = new Int32Array(scanner.memory.buffer);
    const value = table[(FREE_AT + ends) / 4 + k] as number;
    return k === 0 || value < 0 ? value : value - FREE_AT;
  };
  const release = (): void => {
    if (instance === scanner) instance = undefined;
  };
  return { add, proved: () => ok, room, scanAt, compactAt, records: () => scanner.records(), ended, release };
}
