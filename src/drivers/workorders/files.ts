// Work-order files on disk: the only code that reads or writes `<task>/work-orders/*`.
// Writes are atomic (temp + fsync + rename, the store's helper) and confined to the task folder;
// the obs log is an append.
import { constants, existsSync, readdirSync, statSync, type Dirent } from 'node:fs';
import { open, type FileHandle } from 'node:fs/promises';
import { dirname, join } from 'node:path';
// The atomic-write module alone: the store's index would load the ledger code into every kernel.
import { writeFileAtomicSync } from '../../store/atomic-write';
import { readBoundedOrUndefined } from '../../store/bounded-read';
import { appendConfined, confineWrite } from '../../store/confine';
import { LEDGER_SIZE_LIMIT } from '../../store/limits';
import { frontmatterScalar } from '../../engine/workorders/frontmatter';
import { shortId, sidecars } from '../../engine/workorders/ids';
import type { WoFacts } from '../../engine/workorders/reconcile';

// Work-order files come with a cloned repository: a link to /dev/zero or a FIFO in a file's place
// must not hang a kernel or the extension host. A link to a regular file is followed (the
// original reads through links); anything else, or a file over the cap, reads as absent.
const OPEN_FLAGS = constants.O_RDONLY | (constants.O_NONBLOCK ?? 0);

/** The bytes of a regular file (links followed) of at most LEDGER_SIZE_LIMIT, else undefined. */
export function readBytes(path: string): Buffer | undefined {
  return readBoundedOrUndefined(path, LEDGER_SIZE_LIMIT);
}

export function readText(path: string): string | undefined {
  return readBytes(path)?.toString('utf8');
}

/** readText off the calling thread (the extension host), with the same rules. */
export async function readTextAsync(path: string): Promise<string | undefined> {
  let handle: FileHandle;
  try {
    handle = await open(path, OPEN_FLAGS);
  } catch {
    return undefined;
  }
  try {
    const stat = await handle.stat();
    if (!stat.isFile() || stat.size > LEDGER_SIZE_LIMIT) return undefined;
    return await handle.readFile('utf8');
  } catch {
    return undefined;
  } finally {
    await handle.close().catch(() => undefined);
  }
}

export function isDirectory(path: string): boolean {
  try {
    return statSync(path).isDirectory();
  } catch {
    return false;
  }
}

export function isFile(path: string): boolean {
  try {
    return statSync(path).isFile();
  } catch {
    return false;
  }
}

/** Names in `dir` (sorted, byte order); [] when unreadable. */
export function listNames(dir: string): string[] {
  try {
    return readdirSync(dir).sort();
  } catch {
    return [];
  }
}

/** `wo-*.md` regular files in `dir` (the kernels' discovery glob), sorted. */
export function woFileNames(dir: string): string[] {
  return woListing(dir).woFiles;
}

/**
 * One read of the folder: every name in it, and the `wo-*.md` regular files among them, sorted
 * (the reconcile table needs both; a folder of thousands is listed once, not twice).
 */
export function woListing(dir: string): { names: Set<string>; woFiles: string[] } {
  let entries: Dirent[];
  try {
    entries = readdirSync(dir, { withFileTypes: true });
  } catch {
    return { names: new Set(), woFiles: [] };
  }
  // The entry type saves a stat per file; a symlink is followed to see if it is a file.
  const file = (e: Dirent): boolean => e.isFile() || (e.isSymbolicLink() && isFile(join(dir, e.name)));
  return {
    names: new Set(entries.map((e) => e.name)),
    woFiles: entries
      .filter((e) => e.name.startsWith('wo-') && e.name.endsWith('.md') && file(e))
      .map((e) => e.name)
      .sort(),
  };
}

/** The files `<fragment>-*.md` beside a work order (dependency resolution). */
export function siblingsOf(dir: string): (fragment: string) => { text: string }[] {
  const names = listNames(dir);
  return (fragment) =>
    names
      .filter((name) => name.startsWith(`${fragment}-`) && name.endsWith('.md') && isFile(join(dir, name)))
      .map((name) => ({ text: readText(join(dir, name)) ?? '' }));
}

/** Compact JSON + newline, as the kernels print and store it. */
export function jsonLine(value: unknown): string {
  return `${JSON.stringify(value)}\n`;
}

/**
 * Throws OutsideRootError (one line naming the file) unless the folder of the work-order file
 * `path` resolves under its parent, the task folder: a work-orders folder that is a symbolic
 * link leading elsewhere would carry sidecars and HALT markers out of the task. Only the folder
 * is checked: the write replaces the file by rename, which never follows what is in its place.
 */
export function confineWoWrite(path: string): void {
  confineWrite(dirname(dirname(path)), path, { folderOnly: true });
}

export function writeJsonAtomic(path: string, value: unknown): void {
  writeTextAtomic(path, jsonLine(value));
}

export function writeTextAtomic(path: string, text: string): void {
  confineWoWrite(path);
  writeFileAtomicSync(path, text);
}

/** Appends a line to a file in `dir`, never through a link, a FIFO or out of `dir` (the store's confined append). */
export function appendLine(dir: string, path: string, line: string): void {
  appendConfined(dir, path, line.endsWith('\n') ? line : `${line}\n`);
}

/**
 * Everything the reconcile table reads about one work order. `names` (the folder listing, when
 * the caller has it) saves a stat per absent sidecar — most work orders have few sidecars.
 */
export function woFacts(dir: string, fileName: string, names?: Set<string>): WoFacts {
  const text = readText(join(dir, fileName)) ?? '';
  const side = sidecars(shortId(fileName, frontmatterScalar(text, 'id')));
  const present = (name: string): string | undefined => {
    if (names ? !names.has(name) : !existsSync(join(dir, name))) return undefined;
    return readText(join(dir, name)) ?? '';
  };
  return {
    fileName,
    text,
    run: present(side.run),
    review: present(side.review),
    critique: present(side.critique),
    halt: present(side.halt),
  };
}
