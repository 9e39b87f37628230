// Reading a contract file: unreadable → exit 2, not JSON → exit 1 (the reference's split).
import { EXIT } from '../../engine/refusal';
import { Refused } from '../outcome';
import { CONTRACT_LIMIT, readTextFile } from '../read-input';

/** Deeper than any real contract; refusing early keeps every later walk of it bounded. */
const MAX_DEPTH = 64;

function depthExceeds(value: unknown, limit: number): boolean {
  const stack: [unknown, number][] = [[value, 0]];
  while (stack.length > 0) {
    const [v, depth] = stack.pop() as [unknown, number];
    if (v === null || typeof v !== 'object') continue;
    if (depth >= limit) return true;
    for (const child of Object.values(v as object)) stack.push([child, depth + 1]);
  }
  return false;
}

export function readContractFile(path: string): unknown {
  const read = readTextFile(path, CONTRACT_LIMIT);
  if ('error' in read) throw new Refused(EXIT.usage, [`${path}: contract file ${read.error}`]);
  return parseContractText(read.text, path);
}

/**
 * Parses contract text already in hand (an editor buffer); `label` names it in findings. Not
 * JSON, or nested too deeply → exit 1, as for a file.
 */
export function parseContractText(text: string, label: string): unknown {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    const why = error instanceof RangeError ? 'nested too deeply' : (error as Error).message;
    throw new Refused(EXIT.malformed, [`${label}: contract is not valid JSON (${why})`]);
  }
  if (depthExceeds(value, MAX_DEPTH)) {
    throw new Refused(EXIT.malformed, [`${label}: contract is nested more than ${MAX_DEPTH} levels deep`]);
  }
  return value;
}
