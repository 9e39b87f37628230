// Where an evidence command's program must be found for `open` to accept it: on PATH (an
// executable file), at that absolute path, or relative to the workspace root. The engine asks;
// this answers from the file system.
import { accessSync, constants, statSync } from 'node:fs';
import { delimiter, isAbsolute, join } from 'node:path';

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

export function programResolver(
  root: string,
  pathVariable = process.env.PATH ?? '',
): (word: string) => boolean {
  const dirs = pathVariable.split(delimiter).filter((d) => d !== '');
  return (word: string) => {
    if (word === '') return false;
    if (isAbsolute(word)) return isFile(word);
    if (!word.includes('/') && dirs.some((dir) => isExecutable(join(dir, word)))) return true;
    return isFile(join(root, word));
  };
}
