// The benchmark's switch: `npm run bench` runs a command with one hand-written fast path
// replaced by the plain library call it stands in for, to show what the piece saves in the
// command it serves (bench/pieces.mjs). Only the CLI sets it, from LOOP_LEDGER_BENCH_PLAIN, and
// only the bench sets that; every answer is the same either way, only the time differs.

/** The pieces that can be switched off: each names the plain call that replaces it. */
export type PlainPiece =
  /** SHA-256 in JavaScript and WebAssembly for small inputs → node:crypto for every input. */
  | 'sha-tiers'
  /** The brief's WebAssembly scanner → the JavaScript path for every chunk. */
  | 'diff-wasm'
  /** `status`/`iterate` through a long ledger's seal → the full read (parse and check every record). */
  | 'seal'
  /** The WebAssembly proof that no key repeats (store/json-keys.ts) → the JavaScript key count. */
  | 'keys-wasm'
  /** The ledger shape table compiled into plain functions (store/shape-spec.ts) → its interpreter. */
  | 'shape-compiled'
  /** Another writer's long ledger read record by record (store/ledger-sliced.ts) → the full read. */
  | 'sliced'
  /** The CLI's own flag tokenizer (cli/parse-flags.ts) → node:util's parseArgs. */
  | 'flag-tokenizer';

const plain = new Set<string>();

/** Switches the named pieces off (a comma-separated list; unknown names are ignored). */
export function usePlainPieces(list: string): void {
  for (const name of list.split(',')) plain.add(name.trim());
}

export function isPlain(piece: PlainPiece): boolean {
  return plain.size > 0 && plain.has(piece);
}

/** Every piece back on (tests). */
export function clearPlainPieces(): void {
  plain.clear();
}
