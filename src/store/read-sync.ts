// The synchronous driver of the store's reads (read-steps.ts), for the CLI: each request is
// answered by a blocking call. No rule lives here; read-async.ts is the same driver with promises.
import { closeSync, existsSync, fstatSync, openSync, readdirSync, readSync } from 'node:fs';
import {
  advance,
  READ_FLAGS,
  type FolderEntry,
  type ReadAnswer,
  type ReadReply,
  type ReadRequest,
  type ReadSteps,
} from './read-steps';

/** Runs `steps` to its end, answering each request with a blocking call. */
export function runReadSync<T>(steps: ReadSteps<T>): T {
  let fd: number | undefined;
  const close = (): void => {
    if (fd === undefined) return;
    const open = fd;
    fd = undefined;
    try {
      closeSync(open);
    } catch {
      // A descriptor opened read-only has nothing to flush; closing it cannot lose data.
    }
  };
  const answer = (request: ReadRequest): ReadAnswer => {
    switch (request.kind) {
      case 'open':
        close();
        fd = openSync(request.path, READ_FLAGS);
        return undefined;
      case 'stat':
        return fstatSync(openFd(fd));
      case 'read':
        return readSync(openFd(fd), request.buffer, request.offset, request.length, request.position ?? null);
      case 'close':
        close();
        return undefined;
      case 'entries':
        return entriesOf(request.dir);
      case 'exists':
        return existsSync(request.path);
    }
  };
  const reply = (request: ReadRequest): ReadReply => {
    try {
      return { answer: answer(request) };
    } catch (error) {
      return { error };
    }
  };
  try {
    let step = steps.next();
    while (!step.done) step = advance(steps, reply(step.value));
    return step.value;
  } finally {
    close();
  }
}

function openFd(fd: number | undefined): number {
  if (fd === undefined) throw new Error('read step asked for an open file before opening one');
  return fd;
}

function entriesOf(dir: string): FolderEntry[] {
  try {
    return readdirSync(dir, { withFileTypes: true }).map((entry) => ({
      name: entry.name,
      directory: entry.isDirectory(),
    }));
  } catch {
    return [];
  }
}
