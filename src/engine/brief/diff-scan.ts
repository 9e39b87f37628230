// The WebAssembly scanner of diff-scan.wat, for one chunk of ASCII text at a time: its JSON
// escape and, in the same pass, the paths its `diff --git ` / `--- ` / `+++ ` lines name. They
// do in a few milliseconds what JSON.stringify and regular expressions did in ~100 for a
// 20 MiB diff; the JavaScript path stays for every other chunk (non-ASCII, or too big) and
// wherever WebAssembly is missing.
import { ASCII_CHUNK_LIMIT } from '../chunked-text';
import { PY_LINE_BREAKS } from '../python-text';
import { DIFF_SCAN_WASM } from './diff-scan-wasm';

/** Chunks up to this many bytes go to the scanner; their areas are sized for it. */
const SCAN_CHUNK_LIMIT = ASCII_CHUNK_LIMIT;

/** The scanner's table holds this many prefixes of at most PREFIX_MAX bytes each. */
const PREFIX_SLOTS = 4;
const PREFIX_MAX = 16;

// The memory map (diff-scan.wat keeps 0 to 47 for its own tables).
const TABLE = 64;
const TABLE_BYTES = 4 + PREFIX_SLOTS * 20;
const SRC = 256;
/** Every area ends with 16 spare bytes: the scanner reads and writes whole 16-byte blocks. */
const SPARE = 16;
const DST = SRC + SCAN_CHUNK_LIMIT + SPARE;
const DST_BYTES = 6 * SCAN_CHUNK_LIMIT + SPARE;
const OUT = DST + DST_BYTES;
const OUT_BYTES = 4 * SCAN_CHUNK_LIMIT + 8 + SPARE;
/** The kept paths start here (diff-scan.wat pathsBegin); the memory grows as they do. */
const ARENA = OUT + OUT_BYTES;
const MEMORY_BYTES = ARENA + SCAN_CHUNK_LIMIT;
const PAGE = 65536;

interface ScanExports {
  memory: WebAssembly.Memory;
  escape(src: number, len: number, dst: number, table: number, out: number): number;
  linesFound(): number;
  gitDiffPaths(src: number, lines: number, count: number): number;
  pathsBegin(arena: number): void;
  arenaEnd(): number;
  pathsFinish(index: number, out: number): number;
}

let compiled: WebAssembly.Module | null | undefined;

/** The compiled module, once per process; null where this runtime cannot compile it. */
function scanModule(): WebAssembly.Module | null {
  if (compiled === undefined) {
    try {
      compiled = new WebAssembly.Module(Buffer.from(DIFF_SCAN_WASM, 'base64'));
    } catch {
      compiled = null; // no WebAssembly, or no SIMD: the JavaScript path does the work
    }
  }
  return compiled;
}

let shared: DiffScanner | null | undefined;

/** The process's scanner (calls are synchronous and views short-lived, so one serves all), or null. */
export function diffScanner(): DiffScanner | null {
  if (shared === undefined) shared = DiffScanner.create();
  return shared;
}

/** A line break str.splitlines() honours (a prefix holding one could never start a line). */
const LINE_BREAK = new RegExp(`[${PY_LINE_BREAKS}]`);

const isAsciiText = (text: string): boolean => Buffer.byteLength(text, 'utf8') === text.length;

/** Whether the scanner's prefix table can hold these prefixes. */
function suitablePrefixes(prefixes: readonly string[]): boolean {
  return (
    prefixes.length >= 1 &&
    prefixes.length <= PREFIX_SLOTS &&
    prefixes.every((p) => p.length >= 1 && p.length <= PREFIX_MAX && isAsciiText(p) && !LINE_BREAK.test(p))
  );
}

/**
 * One instance of the scanner with its own memory. Views it returns point into that memory and
 * are valid until its next call.
 */
export class DiffScanner {
  /** The memory as bytes; replaced whenever the memory grows (which detaches the old view). */
  private bytes: Buffer;
  private tableFor: readonly string[] | null = null;
  /** Between beginPaths and finishPaths: every escape also keeps the paths of its chunk. */
  private keepingPaths = false;
  private pathCount = 0;

  private constructor(private readonly wasm: ScanExports) {
    this.bytes = Buffer.from(wasm.memory.buffer);
  }

  /** A scanner, or null where the scanner cannot run (the caller takes the JavaScript path). */
  static create(): DiffScanner | null {
    const module = scanModule();
    if (module === null) return null;
    const instance = new WebAssembly.Instance(module, {});
    const scanner = new DiffScanner(instance.exports as unknown as ScanExports);
    scanner.ensureMemory(MEMORY_BYTES);
    return scanner;
  }

  /** Grows the memory (to at least twice its size) when it is smaller than `size` bytes. */
  private ensureMemory(size: number): void {
    const have = this.wasm.memory.buffer.byteLength;
    if (size <= have) return;
    this.wasm.memory.grow(Math.ceil(Math.max(size, 2 * have) / PAGE) - have / PAGE);
    this.bytes = Buffer.from(this.wasm.memory.buffer);
  }

  /**
   * JSON.stringify's escape (quotes left out) of `chunk`, ASCII of at most ASCII_CHUNK_LIMIT
   * bytes starting a line, read as Python's text mode reads it (\r\n and \r become \n), as
   * bytes. Between beginPaths and finishPaths the chunk's paths are kept on the way.
   */
  escape(chunk: Uint8Array): Buffer {
    if (!this.keepingPaths) return this.escapeFinding(chunk, 0);
    // Each path takes at most twice the bytes of its line (a one-byte path: 8 bytes for 6).
    this.ensureMemory(this.wasm.arenaEnd() + 2 * chunk.length + SPARE);
    const escaped = this.escapeFinding(chunk, TABLE);
    this.pathCount = this.wasm.gitDiffPaths(SRC, OUT, this.wasm.linesFound());
    return escaped;
  }

  /**
   * The lines of `chunk` (as escape takes it) that begin with one of `prefixes`, as [start, end
   * of body] offset pairs, in order; null when the scanner cannot take the prefixes (more than
   * four, empty, longer than 16 bytes, not ASCII, or holding a line break). Not while keeping paths.
   */
  prefixedLines(chunk: Uint8Array, prefixes: readonly string[]): Uint32Array | null {
    if (this.keepingPaths || !this.loadTable(prefixes)) return null;
    this.escapeFinding(chunk, TABLE);
    return new Uint32Array(this.wasm.memory.buffer, OUT, 2 * this.wasm.linesFound());
  }

  /**
   * From now until finishPaths, every escape also keeps the paths its chunk's lines that begin
   * with `prefixes` name; the prefixes must be `diff --git `, `--- ` and `+++ ` (see
   * diff-scan.wat gitDiffPaths). False, changing nothing, when the scanner cannot take them.
   */
  beginPaths(prefixes: readonly string[]): boolean {
    if (!this.loadTable(prefixes)) return false;
    this.wasm.pathsBegin(ARENA);
    this.pathCount = 0;
    this.keepingPaths = true;
    return true;
  }

  /** The paths kept since beginPaths, sorted by code point and unique; escapes keep no more. */
  finishPaths(): string[] {
    this.keepingPaths = false;
    const arenaEnd = this.wasm.arenaEnd();
    const index = arenaEnd + SPARE;
    const out = index + 8 * this.pathCount + SPARE;
    this.ensureMemory(out + (arenaEnd - ARENA) + SPARE);
    const size = this.wasm.pathsFinish(index, out);
    // One decode and one split: ~17,000 paths of a 20 MiB diff become strings in two native calls.
    return size === 0 ? [] : this.bytes.toString('latin1', out, out + size - 1).split('\n');
  }

  private escapeFinding(chunk: Uint8Array, table: number): Buffer {
    this.bytes.set(chunk, SRC);
    const size = this.wasm.escape(SRC, chunk.length, DST, table, OUT);
    return this.bytes.subarray(DST, DST + size);
  }

  private loadTable(prefixes: readonly string[]): boolean {
    if (prefixes === this.tableFor) return true;
    if (!suitablePrefixes(prefixes)) return false;
    this.bytes.fill(0, TABLE, TABLE + TABLE_BYTES);
    this.bytes.writeInt32LE(prefixes.length, TABLE);
    prefixes.forEach((prefix, n) => {
      const slot = TABLE + 4 + n * 20;
      this.bytes.writeInt32LE(prefix.length, slot);
      this.bytes.write(prefix, slot + 4, 'latin1');
    });
    this.tableFor = prefixes;
    return true;
  }
}
