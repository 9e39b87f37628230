// The asynchronous driver of the store's reads (read-steps.ts), for the extension host: every
// request is a promise (open, fstat, read, readdir), so the window keeps painting while hundreds
// of ledgers load. No rule lives here: the flags, the cap, the verdicts and the decoding are the
// steps', which the CLI drives with blocking calls (read-sync.ts). One rule, two drivers.
import type * as FsPromises from 'node:fs/promises';
import { listSessionsSteps, ledgerFilesSteps, type LedgerFileRef, type SessionSummary } from './discover';
import type { LedgerRead } from './ledger-verdict';
import { sessionLedgerSteps } from './locate';
import {
  advance,
  ledgerFileSteps,
  READ_FLAGS,
  textFileSteps,
  type FolderEntry,
  type ReadAnswer,
  type ReadReply,
  type ReadRequest,
  type ReadSteps,
  type TextRead,
} from './read-steps';

/**
 * node:fs/promises, loaded on the first asynchronous read: the CLI's `iterate` and `resume`
 * bundle this module (for `run`'s checkpoints) and mostly never read asynchronously.
 */
let fsPromises: typeof FsPromises | undefined;
function promises(): typeof FsPromises {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  fsPromises ??= require('node:fs/promises') as typeof FsPromises;
  return fsPromises;
}

export type { LedgerFileRef } from './discover';
export type { TextRead } from './read-steps';

/** Runs `steps` to its end, answering each request with a promise. */
export async function runReadAsync<T>(steps: ReadSteps<T>): Promise<T> {
  let handle: FsPromises.FileHandle | undefined;
  const close = async (): Promise<void> => {
    if (handle === undefined) return;
    const open = handle;
    handle = undefined;
    await open.close().catch(() => undefined);
  };
  const answer = async (request: ReadRequest): Promise<ReadAnswer> => {
    switch (request.kind) {
      case 'open':
        await close();
        handle = await promises().open(request.path, READ_FLAGS);
        return undefined;
      case 'stat':
        return openHandle(handle).stat();
      case 'read':
        return (
          await openHandle(handle).read(
            request.buffer,
            request.offset,
            request.length,
            request.position ?? null,
          )
        ).bytesRead;
      case 'close':
        await close();
        return undefined;
      case 'entries':
        return entriesOf(request.dir);
      case 'exists':
        return promises()
          .stat(request.path)
          .then(
            () => true,
            () => false,
          );
    }
  };
  try {
    let step = steps.next();
    while (!step.done) {
      const reply = await answer(step.value).then(
        (value): ReadReply => ({ answer: value }),
        (error: unknown): ReadReply => ({ error }),
      );
      step = advance(steps, reply);
    }
    return step.value;
  } finally {
    await close();
  }
}

function openHandle(handle: FsPromises.FileHandle | undefined): FsPromises.FileHandle {
  if (handle === undefined) throw new Error('read step asked for an open file before opening one');
  return handle;
}

async function entriesOf(dir: string): Promise<FolderEntry[]> {
  try {
    const entries = await promises().readdir(dir, { withFileTypes: true });
    return entries.map((entry) => ({ name: entry.name, directory: entry.isDirectory() }));
  } catch {
    return [];
  }
}

/** One ledger file, read through a single descriptor (readLedgerFile's rule). Never throws for a bad file. */
export async function readLedgerFileAsync(path: string): Promise<LedgerRead> {
  return (await runReadAsync(ledgerFileSteps(path))).read;
}

/** The read, and the file's mtime as seen through the same descriptor (0 when unknown). */
export function readLedgerFileTimedAsync(path: string): Promise<{ read: LedgerRead; mtimeMs: number }> {
  return runReadAsync(ledgerFileSteps(path));
}

/** A UTF-8 text file of at most `cap` bytes (textFileSteps' rule). Never throws. */
export function readTextFileAsync(path: string, cap: number): Promise<TextRead> {
  return runReadAsync(textFileSteps(path, cap));
}

/** The ledger files under `root`, by session id, as `list` finds them. Nothing is read. */
export function listLedgerFilesAsync(root: string): Promise<LedgerFileRef[]> {
  return runReadAsync(ledgerFilesSteps(root));
}

/**
 * One session's ledger as it is now, located as every command locates it (its .loop file, else
 * the original engine's) and read once. Null when neither exists.
 */
export async function readSessionLedgerAsync(
  root: string,
  session: string,
): Promise<{ ref: LedgerFileRef; read: Exclude<LedgerRead, { kind: 'absent' }>; mtimeMs: number } | null> {
  const { location, read, mtimeMs } = await runReadAsync(sessionLedgerSteps(root, session));
  if (read.kind === 'absent') return null;
  return { ref: { session, path: location.readPath, legacy: location.legacy }, read, mtimeMs };
}

/** listSessions without blocking: the same rule (listSessionsSteps). */
export function listSessionsAsync(root: string): Promise<SessionSummary[]> {
  return runReadAsync(listSessionsSteps(root));
}
