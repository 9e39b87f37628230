// What every command receives besides its flags.
import { resolve } from 'node:path';
import type { ParsedFlags } from '../args';

export interface CommandContext {
  root: string;
  json: boolean;
  now: Date;
}

export function contextFrom(flags: ParsedFlags): CommandContext {
  const root = typeof flags.root === 'string' && flags.root !== '' ? resolve(flags.root) : process.cwd();
  return { root, json: flags.json === true, now: new Date() };
}

export const str = (v: ParsedFlags[string]): string | null => (typeof v === 'string' ? v : null);
export const list = (v: ParsedFlags[string]): string[] => (Array.isArray(v) ? v : []);
