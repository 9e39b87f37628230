// SHA-256 in WebAssembly (sha256.wat), for inputs between the few kilobytes the JavaScript
// version (sha256-small.ts) hashes fastest cold and the size that pays for loading node:crypto
// (~4 ms, up to ~8 on a busy machine: it loads node:stream too). A brief of a few kilobytes
// hashes its id here in about a millisecond, module compile included.
import { SHA256_WASM } from './sha256-wasm';

interface Sha256Exports {
  memory: WebAssembly.Memory;
  sha256(input: number, length: number, out: number): void;
}

/** Where the digest and the input go (sha256.wat keeps 0 to 575 for itself). */
const DIGEST = 576;
const INPUT = 1024;
/** The padding the WebAssembly module writes after the input. */
const PADDING = 72;
const PAGE = 65536;

let wasm: Sha256Exports | null | undefined;

function loadWasm(): Sha256Exports | null {
  if (wasm === undefined) {
    try {
      wasm = new WebAssembly.Instance(new WebAssembly.Module(Buffer.from(SHA256_WASM, 'base64')), {})
        .exports as unknown as Sha256Exports;
    } catch {
      wasm = null; // no WebAssembly here: the caller uses node:crypto
    }
  }
  return wasm;
}

/**
 * The SHA-256 of the pieces end to end, in hex; null where WebAssembly cannot run. A string
 * piece stands for its latin1 bytes; `size` is the pieces' total length in bytes.
 */
export function sha256HexInWasm(pieces: readonly (string | Uint8Array)[], size: number): string | null {
  const k = loadWasm();
  if (k === null) return null;
  const have = k.memory.buffer.byteLength;
  const need = INPUT + size + PADDING;
  if (need > have) k.memory.grow(Math.ceil((need - have) / PAGE));
  const memory = Buffer.from(k.memory.buffer);
  let at = INPUT;
  for (const piece of pieces) {
    if (typeof piece === 'string') {
      at += memory.write(piece, at, 'latin1');
    } else {
      memory.set(piece, at);
      at += piece.length;
    }
  }
  k.sha256(INPUT, size, DIGEST);
  return memory.toString('hex', DIGEST, DIGEST + 32);
}
