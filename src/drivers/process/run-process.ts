// The one way every driver runs a child (harness agents and checks, work-order agents and gates,
// repeat's step): its own process group; stdin from a string or /dev/null; stdout and stderr
// kept up to a cap (head and tail, the rest counted); a timeout and a cancel that end the whole
// group (SIGTERM, then SIGKILL after a grace). The leader's exit ends the child: whatever it left
// running in its group is killed then, so a background helper that still holds stdout cannot make
// a finished check wait out its timeout and be recorded as timed out. Never throws, never hangs.
import { spawn, type ChildProcess } from 'node:child_process';
import { constants } from 'node:os';
import { MAX_TIMER_MS } from '../../engine/timeout-limit';
import { CappedOutput, DEFAULT_KEEP_BYTES } from './capped-output';

/** Between SIGTERM and SIGKILL to the group. */
export const KILL_GRACE_MS = 2000;
/** After the group is gone, how long pipes held by a process that left the group may stay open. */
const PIPE_DRAIN_MS = 1000;

export interface ProcessSpec {
  /** A string runs through `/bin/sh -c`; an array is exec'd without a shell. */
  cmd: string | string[];
  cwd: string;
  /** The child's whole environment. */
  env: NodeJS.ProcessEnv;
  /** Text for stdin; null gives the process /dev/null. */
  input: string | null;
  /** 0 = no timeout. Over MAX_TIMER_MS it is clamped (callers refuse such timeouts where they read them). */
  timeoutMs: number;
  signal?: AbortSignal;
  /** Kept of each stream (head and tail); default DEFAULT_KEEP_BYTES. */
  keepBytes?: number;
  onStart?: (pid: number) => void;
  onOutput?: (stream: 'stdout' | 'stderr', chunk: Buffer) => void;
}

export interface ProcessResult {
  /** Exit code; a signal death is -signum; null when it timed out, was cancelled or never started. */
  code: number | null;
  /** The raw exit as Node reported it. */
  exitCode: number | null;
  exitSignal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
  /** Bytes of each stream not kept (see CappedOutput). */
  stdoutDropped: number;
  stderrDropped: number;
  timedOut: boolean;
  cancelled: boolean;
  /** Why the program could not be started. */
  startError: string | null;
  pid: number | undefined;
}

function signalCode(signal: NodeJS.Signals | null): number | null {
  if (!signal) return null;
  const num = (constants.signals as Record<string, number>)[signal];
  return typeof num === 'number' ? -num : -1;
}

function killGroup(child: ChildProcess, sig: NodeJS.Signals): void {
  if (child.pid === undefined) return;
  try {
    process.kill(-child.pid, sig);
  } catch {
    try {
      child.kill(sig); // no group (already gone, or not its leader)
    } catch {
      // already gone
    }
  }
}

export function runProcess(spec: ProcessSpec): Promise<ProcessResult> {
  return new Promise((resolve) => {
    const [file, args] =
      typeof spec.cmd === 'string'
        ? ['/bin/sh', ['-c', spec.cmd]]
        : [spec.cmd[0] as string, spec.cmd.slice(1)];
    const out = new CappedOutput(spec.keepBytes ?? DEFAULT_KEEP_BYTES);
    const err = new CappedOutput(spec.keepBytes ?? DEFAULT_KEEP_BYTES);
    let timedOut = false;
    let cancelled = false;
    let startError: string | null = null;
    let exit: { code: number | null; signal: NodeJS.Signals | null } | null = null;
    let settled = false;
    const timers: NodeJS.Timeout[] = [];

    let child: ChildProcess;
    try {
      child = spawn(file, args, {
        cwd: spec.cwd,
        env: spec.env,
        detached: true,
        stdio: [spec.input === null ? 'ignore' : 'pipe', 'pipe', 'pipe'],
      });
    } catch (error) {
      resolve({
        code: null,
        exitCode: null,
        exitSignal: null,
        stdout: '',
        stderr: '',
        stdoutDropped: 0,
        stderrDropped: 0,
        timedOut: false,
        cancelled: false,
        startError: (error as Error).message,
        pid: undefined,
      });
      return;
    }

    const finish = () => {
      if (settled) return;
      settled = true;
      for (const t of timers) clearTimeout(t);
      spec.signal?.removeEventListener('abort', onAbort);
      // Nothing the child started outlives it.
      killGroup(child, 'SIGKILL');
      const code =
        startError !== null || timedOut || cancelled
          ? null
          : (exit?.code ?? signalCode(exit?.signal ?? null));
      resolve({
        code,
        exitCode: exit?.code ?? null,
        exitSignal: exit?.signal ?? null,
        stdout: out.text(),
        stderr: err.text(),
        stdoutDropped: out.dropped,
        stderrDropped: err.dropped,
        timedOut,
        cancelled,
        startError,
        pid: child.pid,
      });
    };
    /** Pipes still held by a process outside the group must not hold us forever. */
    const drainThenFinish = () => {
      timers.push(
        setTimeout(() => {
          child.stdout?.destroy();
          child.stderr?.destroy();
          finish();
        }, PIPE_DRAIN_MS),
      );
    };

    const stop = () => {
      killGroup(child, 'SIGTERM');
      timers.push(
        setTimeout(() => {
          killGroup(child, 'SIGKILL');
          drainThenFinish();
        }, KILL_GRACE_MS),
      );
    };
    const onAbort = () => {
      if (exit || timedOut || cancelled) return;
      cancelled = true;
      stop();
    };

    child.stdout?.on('data', (chunk: Buffer) => {
      out.push(chunk);
      spec.onOutput?.('stdout', chunk);
    });
    child.stderr?.on('data', (chunk: Buffer) => {
      err.push(chunk);
      spec.onOutput?.('stderr', chunk);
    });
    child.on('error', (error) => {
      if (child.pid === undefined) {
        startError = error.message;
        finish();
      }
    });
    child.on('exit', (code, signal) => {
      exit = { code, signal };
      if (settled) return;
      // The leader is done: the timeout no longer applies, and what it left in its group goes
      // now. Output already in the pipes is still read until they close.
      for (const t of timers.splice(0)) clearTimeout(t);
      killGroup(child, 'SIGKILL');
      drainThenFinish();
    });
    child.on('close', (code, signal) => {
      exit ??= { code, signal };
      finish();
    });
    if (child.pid !== undefined) spec.onStart?.(child.pid);
    if (child.stdin) {
      child.stdin.on('error', () => undefined); // a child that never reads stdin is not an error
      child.stdin.end(spec.input ?? '');
    }
    if (spec.signal?.aborted) onAbort();
    else spec.signal?.addEventListener('abort', onAbort, { once: true });
    if (spec.timeoutMs > 0)
      timers.push(
        setTimeout(
          () => {
            if (settled || cancelled || exit) return;
            timedOut = true;
            stop();
          },
          Math.min(spec.timeoutMs, MAX_TIMER_MS),
        ),
      );
  });
}
