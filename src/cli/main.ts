// `loop-ledger`: argv → command → engine + store → stdout payload, stderr findings, exit code.
// Start-up time is the product here (an agent calls this once per iteration): the bundle is one
// small file, and the contract validator reads its shape from the generated JSON schema rather
// than loading the schema library (see src/engine/contract/shape.ts).
import { helpText, parseCommand, type CommandSpec, type ParsedFlags } from './args';
import * as briefCommand from './commands/brief';
import * as closeCommand from './commands/close';
import { contextFrom, type CommandContext } from './commands/context';
import * as iterateCommand from './commands/iterate';
import * as listCommand from './commands/list';
import * as openCommand from './commands/open';
import * as resumeCommand from './commands/resume';
import * as scoreCommand from './commands/score';
import * as statusCommand from './commands/status';
import * as validateCommand from './commands/validate';
import type { CommandOutcome } from './outcome';
import { printFindings, printJson, printLine } from './output';
import { UsageError } from './usage-error';

interface CommandModule {
  spec: CommandSpec;
  run(flags: ParsedFlags, ctx: CommandContext, positional?: string): CommandOutcome;
}

const COMMANDS: Record<string, CommandModule> = {
  open: openCommand,
  iterate: iterateCommand,
  brief: briefCommand,
  score: scoreCommand,
  status: statusCommand,
  resume: resumeCommand,
  close: closeCommand,
  validate: validateCommand,
  list: listCommand,
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

Run \`loop-ledger <command> --help\` for a command's flags.
Exit codes: 0 ok, 1 malformed, 2 usage/no ledger, 3 wrong state or busy, 4 no iterations,
5 action already complete, 6 hard gate breached, 7 retain over a breached gate,
8 unreadable or empty input, 9 diff does not cover the declared scope.`;

function emit(outcome: CommandOutcome, json: boolean): void {
  if (json && outcome.payload !== undefined) printJson(outcome.payload);
  if (!json && outcome.human !== undefined) printLine(outcome.human);
  if (outcome.findings.length > 0) printFindings(outcome.findings);
}

function main(argv: string[]): number {
  const [name, ...rest] = argv;
  if (name === undefined) {
    printLine(USAGE);
    return 2;
  }
  if (name === '--help' || name === '-h' || name === 'help') {
    printLine(USAGE);
    return 0;
  }
  if (name === '--version') {
    printLine(process.env.LOOP_LEDGER_VERSION ?? '0.1.0');
    return 0;
  }
  const command = Object.prototype.hasOwnProperty.call(COMMANDS, name) ? COMMANDS[name] : undefined;
  if (!command) {
    printFindings([
      `loop-ledger: unknown command ${JSON.stringify(name.slice(0, 80))} (choose from ${Object.keys(COMMANDS).join(', ')})`,
    ]);
    return 2;
  }
  try {
    const parsed = parseCommand(command.spec, rest);
    if (parsed.help) {
      printLine(helpText(command.spec));
      return 0;
    }
    const ctx = contextFrom(parsed.flags);
    const outcome = command.run(parsed.flags, ctx, parsed.positional);
    emit(outcome, ctx.json);
    return outcome.exitCode;
  } catch (error) {
    if (error instanceof UsageError) {
      printFindings([`loop-ledger ${name}: ${error.message}`]);
      return 2;
    }
    const err = error as NodeJS.ErrnoException;
    printFindings([`loop-ledger ${name}: ${err.code ? `${err.code}: ` : ''}${err.message ?? String(error)}`]);
    return 1;
  }
}

process.exitCode = main(process.argv.slice(2));
