// The CLI's dispatch: argv → command → stdout payload, stderr findings, exit code. main.ts runs
// it over every command; the build also makes one bundle per everyday command that runs it over
// that command alone (scripts/build.mjs), which the launcher picks when argv names that command
// (src/cli/launch.ts): a smaller file and code cache to load is ~2 ms off every agent step.
import { helpText, parseCommand, type CommandSpec, type ParsedFlags } from './args';
import { contextFrom, type CommandContext } from './commands/context';
import type { CommandOutcome } from './outcome';
import { OutputError, printFindings, printJson, printLine } from './output';
import { internalErrorMessage, isSystemError, systemFailureMessage, systemReason } from '../app/system-error';
import { UsageError } from './usage-error';
import { usePlainPieces } from '../engine/plain-pieces';
import { EXIT } from '../engine/refusal';

/** A command whose flags the shared parser reads; `run` may be asynchronous (drivers spawn processes). */
export interface CommandModule {
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
  /** True when it reads and writes a PostgreSQL store when one is selected (it parses --store itself). */
  stores?: boolean;
  main(argv: string[]): number | Promise<number>;
}

// Each command is loaded when it runs, not at start: esbuild turns these imports into lazy
// initialisers inside the bundle, so `status` never runs the set-up code (tables, Unicode
// regular expressions) of `repeat`, `run` or the contract validator. A process runs one command.
export type Load<T> = () => Promise<T>;

/** What a bundle can run: its commands and the top-level usage text. */
export interface CommandLine {
  commands: Record<string, Load<CommandModule>>;
  /** Drop-in commands with argv conventions of their own. */
  raw: Record<string, Load<RawCommandModule>>;
  usage: string;
}

/** Runs `argv` (without node and the script) and sets the process's exit code. */
export function startCli(cli: CommandLine, argv: string[]): void {
  void main(cli, argv).then((code) => {
    process.exitCode = code;
  });
}

function emit(outcome: CommandOutcome, json: boolean): void {
  if (json && outcome.payload !== undefined) printJson(outcome.payload);
  if (!json && outcome.human !== undefined) printLine(outcome.human);
  if (outcome.findings.length > 0) printFindings(outcome.findings);
}

async function main(cli: CommandLine, argv: string[]): Promise<number> {
  const [name, ...rest] = argv;
  // Set by the benchmark only (bench/pieces.mjs): a hand-written fast path replaced by its plain call.
  const plain = process.env.LOOP_LEDGER_BENCH_PLAIN;
  if (plain) usePlainPieces(plain);
  if (name === undefined) return printTopLevel('loop-ledger', cli.usage, 2);
  if (name === '--help' || name === '-h' || name === 'help') return printTopLevel(name, cli.usage, 0);
  if (name === '--version') {
    return printTopLevel(name, process.env.LOOP_LEDGER_VERSION ?? '0.1.0', 0);
  }
  const own = (table: object): boolean => Object.prototype.hasOwnProperty.call(table, name);
  const loadRaw = own(cli.raw) ? cli.raw[name] : undefined;
  if (loadRaw) return runRaw(name, loadRaw, rest);
  const load = own(cli.commands) ? cli.commands[name] : undefined;
  if (!load) {
    const names = [...Object.keys(cli.commands), ...Object.keys(cli.raw)];
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
    if (ctx.store !== undefined && command.spec.stores !== true) {
      await ctx.store.end();
      throw new UsageError(
        'not available on a PostgreSQL store yet (unset LOOP_LEDGER_STORE or drop --store)',
      );
    }
    let outcome: CommandOutcome;
    try {
      outcome = await command.run(parsed.flags, ctx, parsed.positional);
    } finally {
      await ctx.store?.end();
    }
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
    const command = await load();
    // A raw command that does not declare `stores` works on the files under the root only: never
    // silently, when a store is selected.
    if ((process.env.LOOP_LEDGER_STORE ?? '') !== '' && command.stores !== true) {
      printFindings([
        `loop-ledger ${name}: not available on a PostgreSQL store yet (unset LOOP_LEDGER_STORE)`,
      ]);
      return 2;
    }
    return await command.main(argv);
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
