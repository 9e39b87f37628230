// SHA-256 for ids and fingerprints. node:crypto is loaded on first use: most CLI calls never
// hash, and loading it costs about 4 ms of a ~20 ms process start.
import type { Hash } from 'node:crypto';

type Crypto = typeof import('node:crypto');
let crypto: Crypto | undefined;

/** A fresh incremental SHA-256. */
export function sha256(): Hash {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  crypto ??= require('node:crypto') as Crypto;
  return crypto.createHash('sha256');
}

/** The first 16 hex digits of SHA-256 over the UTF-8 bytes of `text`. */
export function sha256Hex16(text: string): string {
  return sha256().update(text, 'utf8').digest('hex').slice(0, 16);
}
