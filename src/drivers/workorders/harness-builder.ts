// Runs the default builder: `loop-ledger run …` (the harness) as a child process in its own
// process group (timeout and cancel end it and its agents), then reads its receipt from the run
// folder it printed. The harness is a separate process on purpose: it has its own lock, ledger
// and cancel handling, exactly as when an agent calls it from a terminal.
import { join } from 'node:path';
import { runAgent, type AgentResult } from './agent';
import { readText } from './files';

export interface CliProgram {
  /** The Node binary. */
  node: string;
  /** `dist/cli.js`. */
  script: string;
}

export interface HarnessRun {
  result: AgentResult;
  stdout: string;
  /** The end of its stderr (a refusal names the problem there). */
  stderrTail: string;
  /** The parsed `final-receipt.json`, when the run got that far. */
  receipt: unknown;
}

/** Enough for `{final_verdict, run_dir}`; a runaway stdout is not kept whole. */
const STDOUT_LIMIT = 64 * 1024;
const STDERR_TAIL = 2000;

function shellQuote(word: string): string {
  return `'${word.replace(/'/g, `'\\''`)}'`;
}

export async function runHarnessBuild(input: {
  cli: CliProgram;
  args: string[];
  worktree: string;
  env: Record<string, string>;
  timeoutMs: number;
  signal?: AbortSignal;
  onSpawn?: (pgid: number) => void;
}): Promise<HarnessRun> {
  let stdout = '';
  let stderr = '';
  const command = [input.cli.node, input.cli.script, 'run', ...input.args].map(shellQuote).join(' ');
  const result = await runAgent({
    command,
    cwd: input.worktree,
    env: input.env,
    timeoutMs: input.timeoutMs,
    signal: input.signal,
    onSpawn: input.onSpawn,
    onStdout: (chunk) => {
      if (stdout.length < STDOUT_LIMIT) stdout += chunk;
    },
    onStderr: (chunk) => {
      stderr = (stderr + chunk).slice(-STDERR_TAIL);
    },
  });
  let receipt: unknown;
  try {
    const printed = JSON.parse(stdout) as { run_dir?: unknown };
    if (typeof printed.run_dir === 'string') {
      const text = readText(join(input.worktree, printed.run_dir, 'final-receipt.json'));
      receipt = text === undefined ? undefined : (JSON.parse(text) as unknown);
    }
  } catch {
    receipt = undefined;
  }
  return { result, stdout, stderrTail: stderr.trim(), receipt };
}
