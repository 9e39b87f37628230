// Runs one agent or check: its own process group, stdin from a string (or /dev/null), stdout and
// stderr captured, a timeout and a cancel that both end the whole group (SIGTERM, 2 s, SIGKILL),
// so a grandchild of a timed-out agent never writes afterwards. Never throws and never hangs.
import { spawn, type ChildProcess } from 'node:child_process';
import { constants } from 'node:os';

/** Between SIGTERM and SIGKILL to the group, as the original harness. */
export const KILL_GRACE_MS = 2000;
/** After SIGKILL, how long to wait for pipes held by a process that escaped the group. */
const PIPE_DRAIN_MS = 1000;

export interface ProcessSpec {
  /** A string runs through `/bin/sh -c`; an array is exec'd without a shell. */
  cmd: string | string[];
  cwd: string;
  env: Record<string, string>;
  /** Text for stdin; null gives the process /dev/null. */
  input: string | null;
  timeoutMs: number;
  signal?: AbortSignal;
  onOutput?: (stream: 'stdout' | 'stderr', text: string) => void;
}

export interface ProcessResult {
  /** Exit code; a signal death is -signum; null when it timed out, was cancelled or never started. */
  code: number | null;
  stdout: string;
  stderr: string;
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
    const out: Buffer[] = [];
    const err: Buffer[] = [];
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
        stdout: '',
        stderr: '',
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
      const code =
        startError !== null || timedOut || cancelled
          ? null
          : (exit?.code ?? signalCode(exit?.signal ?? null));
      resolve({
        code,
        stdout: Buffer.concat(out).toString('utf8'),
        stderr: Buffer.concat(err).toString('utf8'),
        timedOut,
        cancelled,
        startError,
        pid: child.pid,
      });
    };

    const stop = () => {
      killGroup(child, 'SIGTERM');
      timers.push(
        setTimeout(() => {
          killGroup(child, 'SIGKILL');
          // Pipes still held by a process outside the group must not hold us forever.
          timers.push(
            setTimeout(() => {
              child.stdout?.destroy();
              child.stderr?.destroy();
              finish();
            }, PIPE_DRAIN_MS),
          );
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
      spec.onOutput?.('stdout', chunk.toString('utf8'));
    });
    child.stderr?.on('data', (chunk: Buffer) => {
      err.push(chunk);
      spec.onOutput?.('stderr', chunk.toString('utf8'));
    });
    child.on('error', (error) => {
      if (child.pid === undefined) {
        startError = error.message;
        finish();
      }
    });
    child.on('exit', (code, signal) => {
      exit = { code, signal };
    });
    child.on('close', (code, signal) => {
      exit ??= { code, signal };
      finish();
    });
    if (child.stdin) {
      child.stdin.on('error', () => undefined); // an agent that never reads stdin is not an error
      child.stdin.end(spec.input ?? '');
    }
    if (spec.signal?.aborted) onAbort();
    else spec.signal?.addEventListener('abort', onAbort, { once: true });
    timers.push(
      setTimeout(
        () => {
          if (settled || cancelled) return;
          timedOut = true;
          stop();
        },
        Math.max(0, spec.timeoutMs),
      ),
    );
  });
}
