// Argument parsing with node:util's parseArgs rules (parse-flags.ts: the same parser, compiled
// with the bundle; commander alone measured ~7 ms of a ~21 ms process start here). This file
// adds what argparse gave the original: required flags, choices, integers, and exit 2 for every
// usage error.
import { parseFlags, type FlagOption } from './parse-flags';
import { UsageError } from './usage-error';

export interface FlagSpec {
  type: 'string' | 'boolean';
  multiple?: boolean;
  required?: boolean;
  choices?: readonly string[];
  integer?: boolean;
  /** Shown in --help. */
  help: string;
  placeholder?: string;
}

export interface CommandSpec {
  name: string;
  summary: string;
  flags: Record<string, FlagSpec>;
  /** Name of the one positional argument, when the command takes one. */
  positional?: string;
  /** The command works on a PostgreSQL store too (`--store`); others refuse one. */
  stores?: boolean;
}

/** Flags every subcommand shares. `--session` is added per command because `validate` and `list` have none. */
export const COMMON_FLAGS: Record<string, FlagSpec> = {
  root: { type: 'string', help: 'workspace root (default: the current directory)', placeholder: 'DIR' },
  json: { type: 'boolean', help: 'print the payload as JSON (sorted keys, indent 2)' },
  store: {
    type: 'string',
    help: 'a PostgreSQL ledger store, postgres://… (default: $LOOP_LEDGER_STORE, else the files under the root)',
    placeholder: 'URL',
  },
  project: {
    type: 'string',
    help: "the store's namespace for this workspace's sessions (default: $LOOP_LEDGER_PROJECT, else the root folder's name)",
    placeholder: 'NAME',
  },
  'request-id': {
    type: 'string',
    help: 'with a store: the id of this write, so a retry of one that committed is reported, not done twice',
    placeholder: 'ID',
  },
};

export const SESSION_FLAG: FlagSpec = {
  type: 'string',
  required: true,
  help: 'session id',
  placeholder: 'SID',
};

export type ParsedFlags = Record<string, string | boolean | string[] | number | undefined>;

function camel(flag: string): string {
  return flag.replace(/-([a-z])/g, (_, c: string) => c.toUpperCase());
}

export function helpText(spec: CommandSpec): string {
  const lines = [
    `usage: loop-ledger ${spec.name} [flags]${spec.positional ? ` ${spec.positional}` : ''}`,
    '',
    spec.summary,
    '',
  ];
  const all = { ...spec.flags, ...COMMON_FLAGS };
  for (const [name, f] of Object.entries(all)) {
    const value = f.type === 'string' ? ` ${f.placeholder ?? 'VALUE'}` : '';
    const notes = [
      f.required ? 'required' : '',
      f.multiple ? 'repeatable' : '',
      f.choices ? `one of: ${f.choices.join(' ')}` : '',
    ]
      .filter(Boolean)
      .join('; ');
    // A flag longer than the column keeps two spaces before its help rather than running into it.
    const flag = `  --${name}${value}`;
    lines.push((flag.length < 34 ? flag.padEnd(34) : `${flag}  `) + f.help + (notes ? ` (${notes})` : ''));
  }
  return lines.join('\n');
}

/** Parses argv for one command; throws UsageError. Keys of the result are camelCased flag names. */
export function parseCommand(
  spec: CommandSpec,
  argv: string[],
): { flags: ParsedFlags; positional: string | undefined; help: boolean } {
  const all = { ...spec.flags, ...COMMON_FLAGS };
  const options: Record<string, FlagOption> = { help: { type: 'boolean', short: 'h' } };
  for (const [name, f] of Object.entries(all))
    options[name] = { type: f.type, multiple: f.multiple ?? false };
  let parsed;
  try {
    parsed = parseFlags(argv, options);
  } catch (err) {
    throw new UsageError(String((err as Error).message).split('\n')[0] ?? 'invalid arguments');
  }
  const values = parsed.values as Record<string, string | boolean | string[] | undefined>;
  if (values.help) return { flags: {}, positional: undefined, help: true };
  const positionals = parsed.positionals;
  if (positionals.length > (spec.positional ? 1 : 0)) {
    throw new UsageError(`unrecognized argument: ${JSON.stringify(positionals[spec.positional ? 1 : 0])}`);
  }
  if (spec.positional && positionals.length === 0)
    throw new UsageError(`the argument ${spec.positional} is required`);
  const flags: ParsedFlags = {};
  for (const [name, f] of Object.entries(all)) {
    const value = values[name];
    if (value === undefined) {
      if (f.required) throw new UsageError(`the flag --${name} is required`);
      if (f.multiple) flags[camel(name)] = [];
      continue;
    }
    if (f.choices && typeof value === 'string' && !f.choices.includes(value)) {
      throw new UsageError(
        `--${name}: invalid choice ${JSON.stringify(value)} (choose from ${f.choices.join(', ')})`,
      );
    }
    if (f.integer && typeof value === 'string') {
      // Only the syntax is checked here; the range (e.g. a stall threshold of at least 1) is the
      // engine's rule, so the extension gets the same finding.
      if (!/^\s*[+-]?\d+\s*$/.test(value)) {
        throw new UsageError(`--${name}: expected a whole number, got ${JSON.stringify(value)}`);
      }
      flags[camel(name)] = Number(value);
      continue;
    }
    flags[camel(name)] = value;
  }
  return { flags, positional: positionals[0], help: false };
}
