// `loop-ledger`: argv → command → engine + store → stdout payload, stderr findings, exit code.
// Start-up time is the product here (an agent calls this once per iteration), so the commands
// that validate contracts — and so load the schema library, ~450 KB of the ~520 KB bundle — live
// in a second bundle (dist/cli-contract.js) that only `open` and `validate` load. Parsing it
// cost the other commands ~25 ms before the split.
import { join } from 'node:path';
import { helpText, parseCommand, type CommandSpec, type ParsedFlags } from './args';
import * as briefCommand from './commands/brief';
import * as closeCommand from './commands/close';
import { contextFrom, type CommandContext } from './commands/context';
import * as iterateCommand from './commands/iterate';
import * as listCommand from './commands/list';
import * as resumeCommand from './commands/resume';
import * as scoreCommand from './commands/score';
import * as statusCommand from './commands/status';
import type { CommandOutcome } from './outcome';
import { printFindings, printJson, printLine } from './output';
import { UsageError } from './usage-error';

interface CommandModule {
  spec: CommandSpec;
  run(flags: ParsedFlags, ctx: CommandContext, positional?: string): CommandOutcome;
}

/** The contract-validating commands, from the second bundle (see above). */
function contractCommand(name: 'open' | 'validate'): () => Promise<CommandModule> {
  return async () => {
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const bundle = require(join(__dirname, 'cli-contract.js')) as typeof import('./contract-commands');
    return bundle[name];
  };
}

const now = (module: CommandModule) => () => Promise.resolve(module);
const COMMANDS: Record<string, () => Promise<CommandModule>> = {
  open: contractCommand('open'),
  iterate: now(iterateCommand),
  brief: now(briefCommand),
  score: now(scoreCommand),
  status: now(statusCommand),
  resume: now(resumeCommand),
  close: now(closeCommand),
  validate: contractCommand('validate'),
  list: now(listCommand),
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

async function main(argv: string[]): Promise<number> {
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
  const load = Object.prototype.hasOwnProperty.call(COMMANDS, name) ? COMMANDS[name] : undefined;
  if (!load) {
    printFindings([
      `loop-ledger: unknown command ${JSON.stringify(name.slice(0, 80))} (choose from ${Object.keys(COMMANDS).join(', ')})`,
    ]);
    return 2;
  }
  const command = await load();
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

main(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code;
  },
  (error: unknown) => {
    process.stderr.write(`loop-ledger: ${(error as Error)?.message ?? String(error)}\n`);
    process.exitCode = 1;
  },
);
