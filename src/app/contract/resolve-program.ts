// Where an evidence command's program must be found for `open` to accept it: on PATH (an
// executable file), at that absolute path, or relative to the workspace root. The engine asks;
// this answers from the file system.
//
// The rules are those of the `which` package (what npm uses) rather than the package itself:
// the CLI stays free of dependencies for its start-up time. On Windows a program is found as
// `git.exe`, `npm.cmd`…: every PATHEXT extension is tried (a word that already ends in one is
// tried as it is too), `\` separates paths as `/` does, a drive letter or UNC path is absolute,
// PATH entries may be quoted, and there is no execute bit: an existing file is runnable.
// Everything a platform decides is injectable, so tests run the Windows rules on Linux.
import { accessSync, constants, statSync } from 'node:fs';
import { posix, win32 } from 'node:path';

export interface ResolverSystem {
  readonly platform: NodeJS.Platform;
  readonly pathVariable: string;
  /** Windows only: `.COM;.EXE;.BAT;.CMD` when unset, as cmd.exe assumes. */
  readonly pathExt?: string;
  isFile(path: string): boolean;
  /** POSIX only: an executable regular file. */
  isExecutable(path: string): boolean;
}

const DEFAULT_PATHEXT = '.COM;.EXE;.BAT;.CMD';

function isFile(path: string): boolean {
  try {
    return statSync(path).isFile();
  } catch {
    return false;
  }
}

function isExecutable(path: string): boolean {
  try {
    accessSync(path, constants.X_OK);
    return isFile(path);
  } catch {
    return false;
  }
}

export function nodeSystem(env: NodeJS.ProcessEnv = process.env): ResolverSystem {
  return {
    platform: process.platform,
    // Windows environment names are case-insensitive; Node's env object is too, a copy is not.
    pathVariable: env.PATH ?? env.Path ?? '',
    pathExt: env.PATHEXT,
    isFile,
    isExecutable,
  };
}

export function programResolver(
  root: string,
  system: ResolverSystem = nodeSystem(),
): (word: string) => boolean {
  const windows = system.platform === 'win32';
  const path = windows ? win32 : posix;
  const dirs = system.pathVariable
    .split(windows ? ';' : ':')
    .map((dir) => (windows ? dir.replace(/^"(.*)"$/, '$1') : dir))
    .filter((dir) => dir !== '');
  const extensions = windows
    ? (system.pathExt ?? DEFAULT_PATHEXT).split(';').filter((ext) => ext !== '')
    : [];
  /** The names `word` may have on disk: as is on POSIX; with each PATHEXT on Windows. */
  const candidates = (file: string): string[] => {
    if (!windows) return [file];
    const lower = file.toLowerCase();
    const hasExtension = extensions.some((ext) => lower.endsWith(ext.toLowerCase()));
    return [...(hasExtension ? [file] : []), ...extensions.map((ext) => file + ext)];
  };
  const runnable = (file: string): boolean =>
    candidates(file).some((candidate) =>
      windows ? system.isFile(candidate) : system.isExecutable(candidate),
    );
  const exists = (file: string): boolean =>
    system.isFile(file) || (windows && candidates(file).some((candidate) => system.isFile(candidate)));

  return (word: string) => {
    if (word === '') return false;
    if (path.isAbsolute(word)) return exists(word);
    const hasSeparator = word.includes('/') || (windows && word.includes('\\'));
    if (!hasSeparator && dirs.some((dir) => runnable(path.join(dir, word)))) return true;
    return exists(path.join(root, word));
  };
}
