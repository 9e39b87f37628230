// node:crypto, loaded on first use. Loading it pulls in Node's stream modules: ~2.6 ms on a
// machine whose `node -e 0` takes 21 ms, paid by every command that imports it at the top, and
// most commands never hash a long input, take a checkpoint or write to a store. The modules
// those commands bundle reach it through here (the seal's hash, a checkpoint's nonce, a store's
// request id); test/unit/cli/builtins-loaded.test.ts checks a command needing none loads none.
type Crypto = typeof import('node:crypto');
let crypto: Crypto | undefined;

export function nodeCrypto(): Crypto {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  crypto ??= require('node:crypto') as Crypto;
  return crypto;
}
