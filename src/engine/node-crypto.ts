// node:crypto, loaded on first use. Loading it pulls in Node's stream modules: ~2.6 ms on a
// machine whose `node -e 0` takes 21 ms, paid by every command that imports it at the top, and
// most commands never hash a long input, take a checkpoint or write to a store. Every module of
// the CLI's everyday commands reaches node:crypto through here
// (test/unit/cli/builtins-loaded.test.ts checks they do not load it when they need none of it).
type Crypto = typeof import('node:crypto');
let crypto: Crypto | undefined;

export function nodeCrypto(): Crypto {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  crypto ??= require('node:crypto') as Crypto;
  return crypto;
}
