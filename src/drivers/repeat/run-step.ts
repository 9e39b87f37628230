// Running the inner step: through the shell, in the root, in its own process group so a timeout
// or a cancel ends everything it started (TERM → 2 s → KILL the group). Its stdout is the summary.
import { runProcess } from '../process/run-process';

/** Kept of the step's stdout (the summary: head and tail) and stderr (its last line names a failure). */
const STDOUT_KEEP = 1024 * 1024;

export interface StepRequest {
  command: string;
  cwd: string;
  env: Record<string, string | undefined>;
  timeoutMs: number;
  signal?: AbortSignal;
  /** Told the child's pid as soon as it exists (the run marker records it). */
  onStart?: (pid: number) => void;
}

export interface StepResult {
  exitCode: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderrTail: string;
  timedOut: boolean;
  aborted: boolean;
}

export async function runStep(request: StepRequest): Promise<StepResult> {
  const env: NodeJS.ProcessEnv = { ...process.env };
  for (const [k, v] of Object.entries(request.env)) {
    if (v === undefined) delete env[k];
    else env[k] = v;
  }
  // The shell's exit ends the step (the process module kills what it left in its group), so a
  // background helper still holding stdout cannot keep the loop waiting until the timeout.
  const r = await runProcess({
    cmd: request.command,
    cwd: request.cwd,
    env,
    input: null,
    timeoutMs: request.timeoutMs,
    signal: request.signal,
    keepBytes: STDOUT_KEEP,
    onStart: request.onStart,
  });
  if (r.startError !== null) throw new Error(r.startError);
  const tail = r.stderr.trim().split('\n').pop() ?? '';
  return {
    exitCode: r.exitCode,
    signal: r.exitSignal,
    stdout: r.stdout,
    stderrTail: tail.slice(0, 300),
    timedOut: r.timedOut,
    aborted: r.cancelled,
  };
}
