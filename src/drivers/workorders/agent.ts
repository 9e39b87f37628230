// Runs one agent command (builder, reviewer, critic) for a work order: `/bin/sh -c CMD` in its
// own process group, so a timeout or a cancel ends the agent and everything it started
// (TERM to the group, then KILL after a grace period). Never leaves a process behind, and its
// exit ends it even when something it started in the background still holds its output.
import { runProcess } from '../process/run-process';

export interface AgentRun {
  command: string;
  cwd: string;
  env: Record<string, string>;
  timeoutMs: number;
  signal?: AbortSignal;
  /** Where the agent's output goes (a log file's write function, or nothing). */
  onOutput?: (chunk: string) => void;
  /** The agent's stdout alone (the harness prints its result there). */
  onStdout?: (chunk: string) => void;
  /** The agent's stderr alone (the harness prints a refusal there). */
  onStderr?: (chunk: string) => void;
  /** Its process group id, once started (a crashed runner's successor stops that group). */
  onSpawn?: (pgid: number) => void;
}

export interface AgentResult {
  /** Exit code; null when killed by a signal. */
  code: number | null;
  timedOut: boolean;
  cancelled: boolean;
  /** The command could not be started at all. */
  spawnFailed: boolean;
}

/** Callers take the output through the callbacks; only this much is held here. */
const KEEP_BYTES = 64 * 1024;

export async function runAgent(run: AgentRun): Promise<AgentResult> {
  if (run.signal?.aborted) return { code: null, timedOut: false, cancelled: true, spawnFailed: false };
  const env = { ...process.env, ...run.env };
  delete env.NODE_OPTIONS;
  const r = await runProcess({
    cmd: run.command,
    cwd: run.cwd,
    env,
    input: null,
    timeoutMs: run.timeoutMs,
    signal: run.signal,
    keepBytes: KEEP_BYTES,
    onStart: run.onSpawn,
    onOutput: (stream, chunk) => {
      const text = chunk.toString('utf8');
      if (stream === 'stdout') run.onStdout?.(text);
      else run.onStderr?.(text);
      run.onOutput?.(text);
    },
  });
  // A signal death reads as null here, as before (the work-order rules key on a plain exit code).
  return {
    code: r.startError !== null ? null : r.exitCode,
    timedOut: r.timedOut,
    cancelled: r.cancelled,
    spawnFailed: r.startError !== null,
  };
}
