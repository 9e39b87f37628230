// Reading and writing one ledger file. Reading never throws for a bad file: the caller gets a
// verdict (absent, ok, corrupt, too new) and decides the exit code and message. Writing goes
// through the atomic writer; the caller holds the ledger's lock around read-decide-write.
import { isUtf8 } from 'node:buffer';
import { closeSync, constants, copyFileSync, fsyncSync, openSync, readFileSync } from 'node:fs';
import type { Ledger } from '../engine/types';
import { removeDeadWritersTemps, writeFileAtomicSync } from './atomic-write';
import { layoutLedger, type PreviousText } from './ledger-layout';

/** The ledger layout this build writes. The original engine's files carry no version at all. */
export const SCHEMA_VERSION = 1;

/** `loop-ledger`: carries `schema_version`; `original`: written by work-loop, no version key. */
export type LedgerFormat = 'loop-ledger' | 'original';

export type LedgerRead =
  | { kind: 'absent' }
  | { kind: 'ok'; ledger: Ledger; text: string; format: LedgerFormat }
  | { kind: 'corrupt'; reason: string }
  | { kind: 'too-new'; version: number };

const REQUIRED_KEYS = ['session', 'contract', 'iterations', 'status'] as const;

export function readLedgerFile(path: string): LedgerRead {
  let bytes: Buffer;
  try {
    bytes = readFileSync(path);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') return { kind: 'absent' };
    return { kind: 'corrupt', reason: `cannot be read (${code ?? (error as Error).message})` };
  }
  // A stray byte must not turn into U+FFFD and then be written back as if it were data.
  // isUtf8 + toString is ~3× faster than a fatal TextDecoder on a multi-megabyte ledger.
  if (!isUtf8(bytes)) return { kind: 'corrupt', reason: 'is not valid UTF-8 text' };
  const bom = bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf ? 3 : 0;
  return parseLedgerText(bytes.toString('utf8', bom));
}

/** The checks of readLedgerFile after decoding, for text that did not come from a file. */
export function parseLedgerText(text: string): LedgerRead {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    return { kind: 'corrupt', reason: `is not valid JSON (${(error as Error).message})` };
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    return { kind: 'corrupt', reason: `holds ${describe(value)}, not a ledger object` };
  }
  const record = value as Record<string, unknown>;
  // The version comes first: a newer layout may have moved the keys checked below, and must
  // be reported as "too new" rather than "corrupt" (and never overwritten).
  const hasVersion = Object.prototype.hasOwnProperty.call(record, 'schema_version');
  if (hasVersion) {
    const version = record.schema_version;
    if (typeof version !== 'number' || !Number.isSafeInteger(version) || version < 1) {
      return {
        kind: 'corrupt',
        reason: `has schema_version ${JSON.stringify(version)}, not a positive integer`,
      };
    }
    if (version > SCHEMA_VERSION) return { kind: 'too-new', version };
  }
  const missing = REQUIRED_KEYS.filter((key) => !Object.prototype.hasOwnProperty.call(record, key));
  if (missing.length > 0) {
    return { kind: 'corrupt', reason: `lacks ${missing.map((key) => `"${key}"`).join(', ')}` };
  }
  if (!Array.isArray(record.iterations)) {
    return { kind: 'corrupt', reason: `has "iterations" as ${describe(record.iterations)}, not a list` };
  }
  if (typeof record.session !== 'string') {
    return { kind: 'corrupt', reason: `has "session" as ${describe(record.session)}, not a string` };
  }
  return { kind: 'ok', ledger: value as Ledger, text, format: hasVersion ? 'loop-ledger' : 'original' };
}

function describe(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'a list';
  return `a ${typeof value}`;
}

/** The file text, with `schema_version` set (layout: ledger-layout.ts). */
export function serializeLedger(ledger: Ledger, previous?: PreviousText): string {
  return layoutLedger({ ...ledger, schema_version: SCHEMA_VERSION }, previous);
}

/**
 * Writes the ledger atomically. Call it under withLock, after re-reading the file. Holding the
 * lock is also what makes it safe to sweep temporary files left by writers that were killed.
 */
export function saveLedgerFile(path: string, ledger: Ledger, previous?: PreviousText): void {
  writeFileAtomicSync(path, serializeLedger(ledger, previous));
  removeDeadWritersTemps(path);
}

/**
 * Copies a ledger that is about to be replaced (`open --force` over a corrupt file) to
 * `<path>.corrupt-<YYYYMMDDTHHMMSSZ>` and returns the copy's path. An existing copy from the
 * same second is never overwritten: a `-2`, `-3`… suffix is added instead. The copy is fsynced
 * so it is on disk before the caller's atomic rename replaces the original.
 */
export function keepCorruptCopy(path: string, now: Date): string {
  const stamp = now
    .toISOString()
    .replace(/[-:]/g, '')
    .replace(/\.\d+Z$/, 'Z');
  for (let attempt = 1; ; attempt += 1) {
    const copy = attempt === 1 ? `${path}.corrupt-${stamp}` : `${path}.corrupt-${stamp}-${attempt}`;
    try {
      copyFileSync(path, copy, constants.COPYFILE_EXCL);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'EEXIST') continue;
      throw error;
    }
    const fd = openSync(copy, 'r');
    try {
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
    return copy;
  }
}
