// SHA-256 for ids and fingerprints. node:crypto costs about 4 ms to load on an idle machine,
// far more on a busy one, and most calls never need it. Small inputs (an error signature, a
// state hash) are hashed in plain JavaScript (sha256-small.ts); inputs up to MID_INPUT bytes
// (a small brief's id) in WebAssembly (sha256-mid.ts); an input that outgrows that is handed to
// node:crypto, loaded then, which is far faster per byte.
import type { Hash } from 'node:crypto';
import { sha256HexInWasm } from './sha256-mid';
import { isPlain } from './plain-pieces';
import { sha256HexOf } from './sha256-small';
import { nodeCrypto } from './node-crypto';

/** Up to this many bytes are hashed in JavaScript (where, cold, it beats everything else). */
export const SMALL_INPUT = 2 * 1024;
/** Up to this many in WebAssembly (~100 MB/s cold: 256 KiB in ~2.5 ms, less than loading node:crypto). */
export const MID_INPUT = 256 * 1024;

/** The part of node:crypto's Hash the engine uses. */
export interface Sha256 {
  update(text: string, encoding: 'utf8' | 'latin1'): Sha256;
  updateBytes(bytes: Uint8Array): Sha256;
  digest(encoding: 'hex'): string;
}

/**
 * A piece not hashed yet: a string stands for its latin1 bytes, kept as it came (a brief's id
 * arrives as ~100 short strings, and making a Buffer of each cost more than hashing them all).
 */
type Piece = string | Buffer;

class AdaptiveSha256 implements Sha256 {
  private pending: Piece[] = [];
  private size = 0;
  private native: Hash | undefined;

  update(text: string, encoding: 'utf8' | 'latin1'): Sha256 {
    if (this.native) {
      this.native.update(text, encoding);
      return this;
    }
    if (encoding === 'utf8') return this.updateBytes(Buffer.from(text, 'utf8'));
    this.pending.push(text);
    return this.grew(text.length);
  }

  /** The bytes are hashed (or copied) before this returns: the caller may reuse them. */
  updateBytes(bytes: Uint8Array): Sha256 {
    if (this.native) {
      this.native.update(bytes);
      return this;
    }
    this.pending.push(Buffer.from(bytes));
    return this.grew(bytes.length);
  }

  /** From now on node:crypto hashes everything (the bench's plain variant). */
  toNative(): Sha256 {
    this.native ??= nativeSha256();
    return this;
  }

  private grew(by: number): Sha256 {
    this.size += by;
    if (this.size > MID_INPUT) {
      this.native = nativeSha256();
      for (const piece of this.pending) updateNative(this.native, piece);
      this.pending = [];
    }
    return this;
  }

  digest(encoding: 'hex'): string {
    if (this.native) return this.native.digest(encoding);
    if (this.size > SMALL_INPUT) {
      const hex = sha256HexInWasm(this.pending, this.size);
      if (hex !== null) return hex;
      const native = nativeSha256();
      for (const piece of this.pending) updateNative(native, piece);
      return native.digest(encoding);
    }
    return sha256HexOf(joined(this.pending, this.size));
  }
}

function updateNative(hash: Hash, piece: Piece): void {
  if (typeof piece === 'string') hash.update(piece, 'latin1');
  else hash.update(piece);
}

/** The pieces' bytes, end to end. */
function joined(pieces: readonly Piece[], size: number): Buffer {
  const bytes = Buffer.allocUnsafe(size);
  let at = 0;
  for (const piece of pieces) {
    if (typeof piece === 'string') at += bytes.write(piece, at, 'latin1');
    else at += piece.copy(bytes, at);
  }
  return bytes;
}

/** node:crypto's SHA-256 (loaded on first use), for inputs known to be large. */
export function nativeSha256(): Hash {
  return nodeCrypto().createHash('sha256');
}

/** A fresh incremental SHA-256. */
export function sha256(): Sha256 {
  const hash = new AdaptiveSha256();
  return isPlain('sha-tiers') ? hash.toNative() : hash;
}

/** The first 16 hex digits of SHA-256 over the UTF-8 bytes of `text`. */
export function sha256Hex16(text: string): string {
  return sha256().update(text, 'utf8').digest('hex').slice(0, 16);
}
