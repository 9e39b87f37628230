// The shared flag parser's tokenizer: node:util's `parseArgs` with `strict: true` (and
// `allowPositionals` true by default, false on request), rewritten for start-up time. Node compiles parseArgs (and its
// helpers) from source on first use; this file is in the bundle, so it starts from the code cache
// like the rest. Counted by callgrind, it saves 2.8% of the instructions of `status` and
// 2.7% of `iterate` at 10 iterations (bench/pieces.mjs switches it back; docs/performance.md).
// What it accepts, what it returns and the first line of every error it throws are parseArgs's
// own — a property test (test/unit/cli/parse-flags.test.ts) runs both over random argv to keep it so.
// Every command reads its flags through this one, except two that reproduce an original's
// grammar: `run` (argparse, cli/commands/run/args.ts) and the `wo` kernels (a shell `case` loop,
// cli/commands/wo/io.ts).

import { isPlain } from '../engine/plain-pieces';

export interface FlagOption {
  type: 'string' | 'boolean';
  multiple?: boolean;
  /** One character: `-h` for `--help`. */
  short?: string;
}

export interface ParsedArgv {
  /** Each flag given: a string or true, or a list for `multiple` flags. No prototype. */
  values: Record<string, string | boolean | (string | boolean)[]>;
  positionals: string[];
}

interface OptionToken {
  name: string;
  /** As written: `--root`, `-h` (a `--root=x` is `--root`). */
  rawName: string;
  value: string | undefined;
  /** The value came after `=` (or glued to a short flag), not as the next argument. */
  inline: boolean;
}

/** Thrown for a usage error; the message's first line is what parseArgs's would be. */
export class FlagError extends Error {}

/** The plain call this file stands in for (the benchmark's switch, `flag-tokenizer`). */
function parseWithNode(
  argv: readonly string[],
  options: Record<string, FlagOption>,
  allowPositionals: boolean,
): ParsedArgv {
  // Loaded only here: requiring it at start would pay the cost the tokenizer saves.
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const { parseArgs } = require('node:util') as typeof import('node:util');
  try {
    const { values, positionals } = parseArgs({ args: [...argv], options, strict: true, allowPositionals });
    return { values: values as ParsedArgv['values'], positionals };
  } catch (error) {
    const code = (error as { code?: unknown }).code;
    if (typeof code === 'string' && code.startsWith('ERR_PARSE_ARGS_'))
      throw new FlagError((error as Error).message);
    throw error;
  }
}

function longNameOf(short: string, options: Record<string, FlagOption>): string {
  for (const name of Object.keys(options)) if (options[name]?.short === short) return name;
  return short;
}

function typeOf(name: string, options: Record<string, FlagOption>): string | undefined {
  return Object.prototype.hasOwnProperty.call(options, name) ? options[name]?.type : undefined;
}

/** Splits argv into option tokens and positionals, as parseArgs's first phase does. */
function tokenize(
  argv: readonly string[],
  options: Record<string, FlagOption>,
): (OptionToken | { positional: string })[] {
  const tokens: (OptionToken | { positional: string })[] = [];
  const pending = [...argv];
  while (pending.length > 0) {
    const arg = pending.shift() as string;
    if (arg === '--') {
      for (const rest of pending) tokens.push({ positional: rest });
      break;
    }
    const short = arg.length >= 2 && arg[0] === '-' && arg[1] !== '-';
    if (short && arg.length === 2) {
      // `-h`; a short string flag would take the next argument (none is declared today).
      const name = longNameOf(arg[1] as string, options);
      const takes = typeOf(name, options) === 'string' && pending.length > 0;
      tokens.push({ name, rawName: arg, value: takes ? pending.shift() : undefined, inline: false });
      continue;
    }
    if (short) {
      const first = longNameOf(arg[1] as string, options);
      if (typeOf(first, options) === 'string') {
        // `-fVALUE`
        tokens.push({ name: first, rawName: arg.slice(0, 2), value: arg.slice(2), inline: true });
        continue;
      }
      // A group, `-abc` = `-a -b -c`; a string flag inside takes the rest as its value.
      const expanded: string[] = [];
      for (let i = 1; i < arg.length; i += 1) {
        const name = longNameOf(arg[i] as string, options);
        if (typeOf(name, options) !== 'string' || i === arg.length - 1) expanded.push(`-${arg[i]}`);
        else {
          expanded.push(`-${arg.slice(i)}`);
          break;
        }
      }
      pending.unshift(...expanded);
      continue;
    }
    if (arg.length > 2 && arg.startsWith('--')) {
      // `--name=value` is told by an `=` after the third character, but split at the first `=`
      // (so `--==` is the empty name with value `=`, as parseArgs reads it).
      if (!arg.includes('=', 3)) {
        const name = arg.slice(2);
        const takes = typeOf(name, options) === 'string' && pending.length > 0;
        tokens.push({ name, rawName: arg, value: takes ? pending.shift() : undefined, inline: false });
      } else {
        const equals = arg.indexOf('=');
        const name = arg.slice(2, equals);
        tokens.push({ name, rawName: `--${name}`, value: arg.slice(equals + 1), inline: true });
      }
      continue;
    }
    tokens.push({ positional: arg });
  }
  return tokens;
}

/** The usage error for `token`, or null when it is well formed. */
function problemWith(
  token: OptionToken,
  options: Record<string, FlagOption>,
  allowPositionals: boolean,
): string | null {
  const type = typeOf(token.name, options);
  if (type === undefined) {
    // The hint about `--` only where a positional would be taken, as parseArgs words it.
    if (!allowPositionals) return `Unknown option '${token.rawName}'`;
    return (
      `Unknown option '${token.rawName}'. To specify a positional argument starting with a '-', ` +
      `place it at the end of the command after '--', as in '-- ${JSON.stringify(token.rawName)}`
    );
  }
  const short = options[token.name]?.short;
  const shown = `${short ? `-${short}, ` : ''}--${token.name}`;
  if (type === 'string' && token.value === undefined) return `Option '${shown} <value>' argument missing`;
  if (type === 'boolean' && token.value !== undefined) return `Option '${shown}' does not take an argument`;
  if (!token.inline && token.value !== undefined && token.value.length > 1 && token.value[0] === '-') {
    return `Option '${token.rawName}' argument is ambiguous.`;
  }
  return null;
}

/** parseArgs({ args: argv, options, strict: true, allowPositionals: true }); throws FlagError. */
export function parseFlags(
  argv: readonly string[],
  options: Record<string, FlagOption>,
  config: { allowPositionals?: boolean } = {},
): ParsedArgv {
  if (isPlain('flag-tokenizer')) return parseWithNode(argv, options, config.allowPositionals !== false);
  const values: ParsedArgv['values'] = Object.create(null) as ParsedArgv['values'];
  const positionals: string[] = [];
  for (const token of tokenize(argv, options)) {
    if ('positional' in token) {
      // parseArgs's `allowPositionals: false`: the first offending token in order is the error.
      if (config.allowPositionals === false)
        throw new FlagError(
          `Unexpected argument '${token.positional}'. This command does not take positional arguments`,
        );
      positionals.push(token.positional);
      continue;
    }
    const problem = problemWith(token, options, config.allowPositionals !== false);
    if (problem !== null) throw new FlagError(problem);
    const value = token.value ?? true;
    if (options[token.name]?.multiple) {
      const list = values[token.name];
      if (Array.isArray(list)) list.push(value);
      else values[token.name] = [value];
    } else values[token.name] = value;
  }
  return { values, positionals };
}
