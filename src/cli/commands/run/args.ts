// argv for `loop-ledger run`, with the original harness's argparse conventions: `--flag value`
// or `--flag=value`, unique prefixes of long flags, repeatable --allow/--check, exactly one of
// --objective/--objective-file, `--require-clean`/`--no-require-clean`, int() for numbers, and
// argparse's own error texts. A tokenizer of its own because the shared one (cli/parse-flags.ts,
// node's parseArgs rules) has no prefix matching and words its errors differently, and the original
// accepts abbreviated flags.
import { UsageError } from '../../usage-error';

type Kind = 'value' | 'append' | 'true' | 'false';

interface FlagSpec {
  key: string;
  kind: Kind;
  metavar?: string;
}

const FLAGS: Record<string, FlagSpec> = {
  '--objective': { key: 'objective', kind: 'value', metavar: 'TEXT' },
  '--objective-file': { key: 'objectiveFile', kind: 'value', metavar: 'PATH' },
  '--agent-config': { key: 'agentConfig', kind: 'value', metavar: 'PATH' },
  '--allow': { key: 'allow', kind: 'append', metavar: 'GLOB' },
  '--check': { key: 'check', kind: 'append', metavar: 'CMD' },
  '--max-attempts': { key: 'maxAttempts', kind: 'value', metavar: 'N' },
  '--check-timeout': { key: 'checkTimeout', kind: 'value', metavar: 'SECONDS' },
  '--run-root': { key: 'runRoot', kind: 'value', metavar: 'DIR' },
  '--require-clean': { key: 'requireClean', kind: 'true' },
  '--no-require-clean': { key: 'requireClean', kind: 'false' },
  '--no-checkpoint': { key: 'noCheckpoint', kind: 'true' },
  '--print-json': { key: 'printJson', kind: 'true' },
  '--root': { key: 'root', kind: 'value', metavar: 'DIR' },
  '--session': { key: 'session', kind: 'value', metavar: 'S' },
  '--node': { key: 'node', kind: 'value', metavar: 'FILE' },
  '--repo': { key: 'repo', kind: 'value', metavar: 'DIR' },
  '--help': { key: 'help', kind: 'true' },
};

/**
 * Flags the original did not have. An abbreviation resolves among the original's flags first, so
 * one that named an original flag (`--s` for --session, `--p` for --print-json) still does; only a
 * word no original flag starts with may abbreviate these.
 */
const ADDED: Record<string, FlagSpec> = {
  '--store': { key: 'store', kind: 'value', metavar: 'URL' },
  '--project': { key: 'project', kind: 'value', metavar: 'NAME' },
};

export interface RunArgs {
  objective?: string;
  objectiveFile?: string;
  agentConfig?: string;
  allow: string[];
  check: string[];
  maxAttempts: number;
  checkTimeout: number;
  runRoot: string;
  requireClean: boolean;
  /** --no-checkpoint: no workspace checkpoint per attempt. */
  noCheckpoint: boolean;
  printJson: boolean;
  root?: string;
  session?: string;
  node?: string;
  repo?: string;
  /** A PostgreSQL ledger store (over LOOP_LEDGER_STORE) and its project (over LOOP_LEDGER_PROJECT). */
  store?: string;
  project?: string;
  help: boolean;
}

export const RUN_USAGE = `usage: loop-ledger run (--objective TEXT | --objective-file PATH) --agent-config PATH
                      --allow GLOB [--allow GLOB ...] [--check CMD ...]
                      [--max-attempts N] [--check-timeout SECONDS] [--run-root DIR]
                      [--require-clean | --no-require-clean] [--no-checkpoint] [--print-json]
                      [--root DIR] [--session S] [--store URL] [--project NAME]
       loop-ledger run --node FILE [--root DIR] [--print-json] [--store URL] [--project NAME]

Run one bounded harness: explorer once, then coder -> checks -> code-reviewer -> repair until
PASS, BLOCKED or --max-attempts (default 3). --check-timeout defaults to 300 s per check;
--run-root to .loop/runs. Each attempt's iteration records a workspace checkpoint (see
docs/checkpoints.md) unless --no-checkpoint. --store URL (default: $LOOP_LEDGER_STORE) records the
ledger in that PostgreSQL store under --project NAME (default: $LOOP_LEDGER_PROJECT, else the root
folder's name); the run folders stay here. Exit 0 only on PASS, 1 for any other receipt, 2 when refused before
anything is written, 130 when cancelled (SIGINT/SIGTERM; the same --session resumes).`;

/** Python's int() over a command-line string. */
function pyInt(flag: string, text: string): number {
  if (!/^\s*[+-]?\d+(_\d+)*\s*$/.test(text))
    throw new UsageError(`argument ${flag}: invalid int value: '${text}'`);
  return Number(text.replace(/_/g, ''));
}

function looksLikeFlag(text: string): boolean {
  return text.startsWith('-') && !/^-\d+$|^-\d*\.\d+$/.test(text);
}

function resolveFlag(word: string): string {
  if (Object.prototype.hasOwnProperty.call(FLAGS, word)) return word;
  if (Object.prototype.hasOwnProperty.call(ADDED, word)) return word;
  if (word === '-h') return '--help';
  for (const table of [FLAGS, ADDED]) {
    const matches = Object.keys(table).filter((f) => f.startsWith(word));
    if (matches.length === 1) return matches[0] as string;
    if (matches.length > 1)
      throw new UsageError(`ambiguous option: ${word} could match ${matches.join(', ')}`);
  }
  throw new UsageError(`unrecognized arguments: ${word}`);
}

function specOf(name: string): FlagSpec {
  return (FLAGS[name] ?? ADDED[name]) as FlagSpec;
}

export function parseRunArgs(argv: string[]): RunArgs {
  const raw: Record<string, unknown> = { allow: [], check: [] };
  const seen = new Set<string>();
  for (let i = 0; i < argv.length; i++) {
    const word = argv[i] as string;
    if (!word.startsWith('--') && word !== '-h') throw new UsageError(`unrecognized arguments: ${word}`);
    const eq = word.indexOf('=');
    const name = resolveFlag(eq > 0 ? word.slice(0, eq) : word);
    const spec = specOf(name);
    seen.add(name);
    if (spec.kind === 'true' || spec.kind === 'false') {
      if (eq > 0) throw new UsageError(`argument ${name}: ignored explicit argument '${word.slice(eq + 1)}'`);
      raw[spec.key] = spec.kind === 'true';
      continue;
    }
    let value: string;
    if (eq > 0) value = word.slice(eq + 1);
    else {
      const next = argv[i + 1];
      if (next === undefined || looksLikeFlag(next))
        throw new UsageError(`argument ${name}: expected one argument`);
      value = next;
      i += 1;
    }
    if (spec.kind === 'append') (raw[spec.key] as string[]).push(value);
    else raw[spec.key] = value;
  }
  if (raw.help === true) return { ...defaults(), help: true };
  if (seen.has('--objective') && seen.has('--objective-file'))
    throw new UsageError('argument --objective-file: not allowed with argument --objective');
  const args: RunArgs = {
    ...defaults(),
    objective: raw.objective as string | undefined,
    objectiveFile: raw.objectiveFile as string | undefined,
    agentConfig: raw.agentConfig as string | undefined,
    allow: raw.allow as string[],
    check: raw.check as string[],
    root: raw.root as string | undefined,
    session: raw.session as string | undefined,
    node: raw.node as string | undefined,
    repo: raw.repo as string | undefined,
    store: raw.store as string | undefined,
    project: raw.project as string | undefined,
    printJson: raw.printJson === true,
    noCheckpoint: raw.noCheckpoint === true,
  };
  if (typeof raw.requireClean === 'boolean') args.requireClean = raw.requireClean;
  if (typeof raw.maxAttempts === 'string') args.maxAttempts = pyInt('--max-attempts', raw.maxAttempts);
  if (typeof raw.checkTimeout === 'string') args.checkTimeout = pyInt('--check-timeout', raw.checkTimeout);
  if (typeof raw.runRoot === 'string') args.runRoot = raw.runRoot;
  if (args.node !== undefined) return args; // the node runner reads the rest from the node file
  const missing: string[] = [];
  if (args.agentConfig === undefined) missing.push('--agent-config');
  if (args.allow.length === 0) missing.push('--allow');
  if (args.objective === undefined && args.objectiveFile === undefined)
    throw new UsageError('one of the arguments --objective --objective-file is required');
  if (missing.length > 0) throw new UsageError(`the following arguments are required: ${missing.join(', ')}`);
  return args;
}

function defaults(): RunArgs {
  return {
    allow: [],
    check: [],
    maxAttempts: 3,
    checkTimeout: 300,
    runRoot: '.loop/runs',
    requireClean: true,
    noCheckpoint: false,
    printJson: false,
    help: false,
  };
}
