// Runs one agent command (builder, reviewer, critic) for a work order: `/bin/sh -c CMD` in its
// own process group, so a timeout or a cancel ends the agent and everything it started
// (TERM to the group, then KILL after a grace period). Never leaves a process behind.
import { spawn } from 'node:child_process';

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

const GRACE_MS = 2000;

function killGroup(pid: number | undefined, signal: NodeJS.Signals): void {
  if (pid === undefined) return;
  try {
    process.kill(-pid, signal);
  } catch {
    // the group is already gone
  }
}

export function runAgent(run: AgentRun): Promise<AgentResult> {
  return new Promise((resolve) => {
    if (run.signal?.aborted) {
      resolve({ code: null, timedOut: false, cancelled: true, spawnFailed: false });
      return;
    }
    const env = { ...process.env, ...run.env };
    delete env.NODE_OPTIONS;
    const child = spawn('/bin/sh', ['-c', run.command], {
      cwd: run.cwd,
      env,
      detached: true,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    if (child.pid !== undefined) run.onSpawn?.(child.pid);
    let timedOut = false;
    let cancelled = false;
    let settled = false;
    let killTimer: NodeJS.Timeout | undefined;
    const stop = (): void => {
      killGroup(child.pid, 'SIGTERM');
      killTimer = setTimeout(() => killGroup(child.pid, 'SIGKILL'), GRACE_MS);
    };
    const timer = setTimeout(() => {
      timedOut = true;
      stop();
    }, run.timeoutMs);
    const onAbort = (): void => {
      cancelled = true;
      stop();
    };
    run.signal?.addEventListener('abort', onAbort, { once: true });
    child.stdout?.on('data', (d: Buffer) => {
      run.onStdout?.(d.toString('utf8'));
      run.onOutput?.(d.toString('utf8'));
    });
    child.stderr?.on('data', (d: Buffer) => {
      run.onStderr?.(d.toString('utf8'));
      run.onOutput?.(d.toString('utf8'));
    });
    const finish = (result: AgentResult): void => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      if (killTimer) clearTimeout(killTimer);
      run.signal?.removeEventListener('abort', onAbort);
      // Whatever the agent left running in its group goes with it.
      killGroup(child.pid, 'SIGKILL');
      resolve(result);
    };
    child.on('error', () => finish({ code: null, timedOut, cancelled, spawnFailed: true }));
    child.on('close', (code) => finish({ code, timedOut, cancelled, spawnFailed: false }));
  });
}
