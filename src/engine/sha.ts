// SHA-256 prefixes for ids and fingerprints. node:crypto is loaded on first use: most CLI calls
// never hash, and loading it costs about 2 ms of a ~20 ms process start.
type Crypto = typeof import('node:crypto');
let crypto: Crypto | undefined;

export function sha256Hex16(text: string): string {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  crypto ??= require('node:crypto') as Crypto;
  return crypto.createHash('sha256').update(text, 'utf8').digest('hex').slice(0, 16);
}
