// `loop-ledger`: argv → command → engine + store → stdout payload, stderr findings, exit code.
// Start-up time is the product here (an agent calls this once per iteration): the bundle is one
// small file, and the contract validator reads its shape from the generated JSON schema rather
// than loading the schema library (see src/engine/contract/shape.ts).
import { helpText, parseCommand, type CommandSpec, type ParsedFlags } from './args';
import { contextFrom, type CommandContext } from './commands/context';
import type { CommandOutcome } from './outcome';
import { OutputError, printFindings, printJson, printLine } from './output';
import { internalErrorMessage, isSystemError, systemFailureMessage, systemReason } from '../app/system-error';
import { UsageError } from './usage-error';
import { EXIT } from '../engine/refusal';

/** A command whose flags the shared parser reads; `run` may be asynchronous (drivers spawn processes). */
interface CommandModule {
  spec: CommandSpec;
  run(flags: ParsedFlags, ctx: CommandContext, positional?: string): CommandOutcome | Promise<CommandOutcome>;
}

/**
 * A command that parses its own argv and prints its own output: the drop-in surfaces (`run`,
 * `repeat`, `wo …`) whose originals had argument and output conventions of their own. It returns
 * the exit code.
 */
export interface RawCommandModule {
  raw: true;
  main(argv: string[]): number | Promise<number>;
}

// Each command is loaded when it runs, not at start: esbuild turns these imports into lazy
// initialisers inside the one bundle, so `status` never runs the set-up code (tables, Unicode
// regular expressions) of `repeat`, `run` or the contract validator. A process runs one command.
type Load<T> = () => Promise<T>;

/** Drop-in commands with argv conventions of their own; each adds one line here. */
const RAW_COMMANDS: Record<string, Load<RawCommandModule>> = {
  repeat: () => import('./commands/repeat'),
  run: () => import('./commands/run'),
  wo: () => import('./commands/wo'),
};

const COMMANDS: Record<string, Load<CommandModule>> = {
  open: () => import('./commands/open'),
  iterate: () => import('./commands/iterate'),
  brief: () => import('./commands/brief'),
  score: () => import('./commands/score'),
  status: () => import('./commands/status'),
  resume: () => import('./commands/resume'),
  close: () => import('./commands/close'),
  validate: () => import('./commands/validate'),
  list: () => import('./commands/list'),
};

const USAGE = `usage: loop-ledger <command> [flags]

Bounded, auditable, resumable work loops. Commands:
  open      open a loop under a contract (re-open a closed one as a new epoch)
  iterate   record one iteration with exactly one outcome
  brief     assemble a critic packet from a diff and arm it as the pending brief
  score     score measurements against the rubric (exit 6 on a breached hard gate)
  status    report a loop (exit 4 when it has no iterations)
  resume    re-enter a paused loop
  close     end an open loop with a terminal outcome
  validate  check a contract file without opening a loop
  list      list every session under the root
  repeat    repeat an inner step until the workspace settles (exit 10 partial, 11 paused)
  run       run the bounded agent harness (explorer, coder, checks, reviewer) and write a receipt
  wo        the work-order queue: kernels (run-state, compile, gates, obs, …) and \`wo run\`

Run \`loop-ledger <command> --help\` for a command's flags.
Exit codes: 0 ok, 1 malformed, 2 usage/no ledger, 3 wrong state or busy, 4 no iterations,
5 action already complete, 6 hard gate breached, 7 retain over a breached gate,
8 unreadable or empty input, 9 diff does not cover the declared scope,
74 the system refused a file operation (disk full, permission denied…), 70 internal error (a bug).`;

function emit(outcome: CommandOutcome, json: boolean): void {
  if (json && outcome.payload !== undefined) printJson(outcome.payload);
  if (!json && outcome.human !== undefined) printLine(outcome.human);
  if (outcome.findings.length > 0) printFindings(outcome.findings);
}

async function main(argv: string[]): Promise<number> {
  const [name, ...rest] = argv;
  if (name === undefined) return printTopLevel('loop-ledger', USAGE, 2);
  if (name === '--help' || name === '-h' || name === 'help') return printTopLevel(name, USAGE, 0);
  if (name === '--version') {
    return printTopLevel(name, process.env.LOOP_LEDGER_VERSION ?? '0.1.0', 0);
  }
  const own = (table: object): boolean => Object.prototype.hasOwnProperty.call(table, name);
  const loadRaw = own(RAW_COMMANDS) ? RAW_COMMANDS[name] : undefined;
  if (loadRaw) return runRaw(name, loadRaw, rest);
  const load = own(COMMANDS) ? COMMANDS[name] : undefined;
  if (!load) {
    const names = [...Object.keys(COMMANDS), ...Object.keys(RAW_COMMANDS)];
    printFindings([
      `loop-ledger: unknown command ${JSON.stringify(name.slice(0, 80))} (choose from ${names.join(', ')})`,
    ]);
    return 2;
  }
  try {
    const command = await load();
    const parsed = parseCommand(command.spec, rest);
    if (parsed.help) {
      printLine(helpText(command.spec));
      return 0;
    }
    const ctx = contextFrom(parsed.flags);
    const outcome = await command.run(parsed.flags, ctx, parsed.positional);
    emit(outcome, ctx.json);
    return outcome.exitCode;
  } catch (error) {
    if (error instanceof UsageError) {
      printFindings([`loop-ledger ${name}: ${error.message}`]);
      return 2;
    }
    return unexpected(name, error);
  }
}

/** Usage and version text, printed outside any command: a closed stdout is still one line and 74. */
function printTopLevel(name: string, text: string, code: number): number {
  try {
    printLine(text);
    return code;
  } catch (error) {
    return unexpected(name, error);
  }
}

async function runRaw(name: string, load: Load<RawCommandModule>, argv: string[]): Promise<number> {
  try {
    return await (await load()).main(argv);
  } catch (error) {
    if (error instanceof UsageError) {
      printFindings([`loop-ledger ${name}: ${error.message}`]);
      return 2;
    }
    return unexpected(name, error);
  }
}

/**
 * An error no operation turned into an outcome: the system refusing a file operation or our
 * own output (exit 74), or a bug (exit 70, saying where to report it). Never exit 1, which
 * means malformed input; one line, never a stack trace.
 */
function unexpected(name: string, error: unknown): number {
  let line: string;
  let code: number;
  if (error instanceof OutputError) {
    line = `cannot write to ${error.stream}: ${systemReason(error.error)}; the command ran, its output was lost`;
    code = EXIT.system;
  } else if (isSystemError(error)) {
    line = systemFailureMessage(error);
    code = EXIT.system;
  } else {
    line = internalErrorMessage(error);
    code = EXIT.internal;
  }
  try {
    printFindings([`loop-ledger ${name}: ${line}`]);
  } catch {
    // stderr is gone too: the exit code is all that can still be said
  }
  return code;
}

void main(process.argv.slice(2)).then((code) => {
  process.exitCode = code;
});
