// Running the inner step: through the shell, in the root, in its own process group so a timeout
// or a cancel ends everything it started (TERM → 2 s → KILL the group). Its stdout is the summary.
import { spawn } from 'node:child_process';

export const KILL_GRACE_MS = 2000;
/** Kept of the step's stdout (the summary) and stderr (its last line names a failure). */
const STDOUT_KEEP = 1024 * 1024;
const STDERR_KEEP = 16 * 1024;

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

function killGroup(pid: number, signal: NodeJS.Signals): void {
  try {
    process.kill(-pid, signal);
  } catch {
    // already gone
  }
}

export function runStep(request: StepRequest): Promise<StepResult> {
  return new Promise((resolve, reject) => {
    const env: NodeJS.ProcessEnv = { ...process.env };
    for (const [k, v] of Object.entries(request.env)) {
      if (v === undefined) delete env[k];
      else env[k] = v;
    }
    const child = spawn('/bin/sh', ['-c', request.command], {
      cwd: request.cwd,
      env,
      detached: true,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    let timedOut = false;
    let aborted = false;
    let killTimer: NodeJS.Timeout | undefined;
    const stop = () => {
      if (child.pid === undefined) return;
      const pid = child.pid;
      killGroup(pid, 'SIGTERM');
      killTimer ??= setTimeout(() => killGroup(pid, 'SIGKILL'), KILL_GRACE_MS);
    };
    const timer =
      request.timeoutMs > 0
        ? setTimeout(() => {
            timedOut = true;
            stop();
          }, request.timeoutMs)
        : undefined;
    const onAbort = () => {
      aborted = true;
      stop();
    };
    if (request.signal?.aborted) onAbort();
    request.signal?.addEventListener('abort', onAbort, { once: true });
    if (child.pid !== undefined) request.onStart?.(child.pid);
    child.stdout.setEncoding('utf8');
    child.stderr.setEncoding('utf8');
    child.stdout.on('data', (d: string) => {
      if (stdout.length < STDOUT_KEEP) stdout += d;
    });
    child.stderr.on('data', (d: string) => {
      stderr = (stderr + d).slice(-STDERR_KEEP);
    });
    child.on('error', (error) => {
      clearTimeout(timer);
      request.signal?.removeEventListener('abort', onAbort);
      reject(error);
    });
    // The shell's exit ends the step: what it left in its group goes now, not at 'close' — a
    // background helper still holding the stdout pipe would otherwise keep 'close' (and the loop)
    // waiting until the timeout. Output already in the pipe is still read.
    child.on('exit', () => {
      if (child.pid !== undefined) killGroup(child.pid, 'SIGKILL');
    });
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      request.signal?.removeEventListener('abort', onAbort);
      // The shell is gone; make sure nothing it left behind in its group outlives the step.
      if (child.pid !== undefined) killGroup(child.pid, 'SIGKILL');
      if (killTimer) clearTimeout(killTimer);
      const tail = stderr.trim().split('\n').pop() ?? '';
      resolve({
        exitCode: code,
        signal,
        stdout: stdout.slice(0, STDOUT_KEEP),
        stderrTail: tail.slice(0, 300),
        timedOut,
        aborted,
      });
    });
  });
}
