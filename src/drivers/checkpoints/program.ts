// A checkpoint's sequence of git calls and file reads, written once as a generator that yields
// each step and gets its answer back, and two runners for it: a synchronous one for the CLI
// (where a blocking call costs nothing) and an asynchronous one for the extension host (where a
// blocking git would freeze every extension in the window while the workspace is read). The
// sequence itself never runs a process or touches a file: only the runners do.
import { copyFileSync, lstatSync, readFileSync, statSync, utimesSync, type Stats } from 'node:fs';
import { copyFile, lstat, readFile, stat, utimes } from 'node:fs/promises';
import { git, gitAsync, type GitCall, type GitPlace, type GitResult } from './git';

export type Step =
  | { kind: 'git'; place: GitPlace; args: readonly string[]; call: GitCall }
  | { kind: 'copy-index'; from: string; to: string }
  | { kind: 'lstat'; paths: readonly string[] }
  | { kind: 'read-texts'; paths: readonly string[] };

/** A sequence of steps ending in a T; each `yield` is answered by the runner. */
export type Program<T> = Generator<Step, T, unknown>;

export function* gitStep(place: GitPlace, args: readonly string[], call: GitCall = {}): Program<GitResult> {
  return (yield { kind: 'git', place, args, call }) as GitResult;
}

/**
 * Copies the index with its modification time (rounded down to the second). Git trusts a
 * file's cached stat data only when the file is older than the index: a copy stamped "now"
 * would hide a change made in the same second the user's index was written ("racy git").
 */
export function* copyIndexStep(from: string, to: string): Program<void> {
  yield { kind: 'copy-index', from, to };
}

/** What each path is on disk (null: gone), without following links. */
export function* lstatStep(paths: readonly string[]): Program<(Stats | null)[]> {
  return (yield { kind: 'lstat', paths }) as (Stats | null)[];
}

/** Small text files' contents (null: cannot be read), e.g. git's configuration files. */
export function* readTextsStep(paths: readonly string[]): Program<(string | null)[]> {
  return (yield { kind: 'read-texts', paths }) as (string | null)[];
}

function textOrNull(path: string): string | null {
  try {
    return readFileSync(path, 'utf8');
  } catch {
    return null;
  }
}

function lstatOrNull(path: string): Stats | null {
  try {
    return lstatSync(path);
  } catch {
    return null;
  }
}

function answerSync(step: Step): unknown {
  switch (step.kind) {
    case 'git':
      return git(step.place, step.args, step.call);
    case 'copy-index': {
      copyFileSync(step.from, step.to);
      const s = statSync(step.from);
      utimesSync(step.to, s.atime, Math.floor(s.mtimeMs / 1000));
      return undefined;
    }
    case 'lstat':
      return step.paths.map(lstatOrNull);
    case 'read-texts':
      return step.paths.map(textOrNull);
  }
}

async function answerAsync(step: Step): Promise<unknown> {
  switch (step.kind) {
    case 'git':
      return gitAsync(step.place, step.args, step.call);
    case 'copy-index': {
      await copyFile(step.from, step.to);
      const s = await stat(step.from);
      await utimes(step.to, s.atime, Math.floor(s.mtimeMs / 1000));
      return undefined;
    }
    case 'lstat':
      return Promise.all(step.paths.map((p) => lstat(p).catch(() => null)));
    case 'read-texts':
      return Promise.all(step.paths.map((p) => readFile(p, 'utf8').catch(() => null)));
  }
}

/** Runs the program, blocking the thread for each step (the CLI's way). */
export function runSync<T>(program: Program<T>): T {
  let next = program.next();
  while (!next.done) {
    let answer: unknown;
    try {
      answer = answerSync(next.value);
    } catch (error) {
      next = program.throw(error);
      continue;
    }
    next = program.next(answer);
  }
  return next.value;
}

/** Runs the same program without blocking the thread (the extension host's way). */
export async function runAsync<T>(program: Program<T>): Promise<T> {
  let next = program.next();
  while (!next.done) {
    let answer: unknown;
    try {
      answer = await answerAsync(next.value);
    } catch (error) {
      next = program.throw(error);
      continue;
    }
    next = program.next(answer);
  }
  return next.value;
}
