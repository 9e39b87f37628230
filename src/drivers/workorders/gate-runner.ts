// Runs one exit gate of `wo run` as its drop-in kernel (`loop-ledger wo ship-gate|merge-gate|
// mode-gate <task> …`) in a child process, so the loop reads exactly what a person or the
// original skill would: the same JSON, the same status line, the same exit code (which beats the
// JSON), and the same $WO_* hooks.
import { spawn } from 'node:child_process';
import type { CliProgram } from './harness-builder';

export interface GateAnswer {
  exitCode: number | null;
  payload: Record<string, unknown>;
  /** The kernel's stderr status line(s), forwarded verbatim. */
  lines: string[];
}

const LIMIT = 256 * 1024;

export function runGate(
  cli: CliProgram,
  gate: 'ship-gate' | 'merge-gate' | 'mode-gate',
  args: string[],
  env: NodeJS.ProcessEnv,
  timeoutMs: number,
): Promise<GateAnswer> {
  return new Promise((resolve) => {
    const childEnv = { ...env };
    delete childEnv.NODE_OPTIONS;
    const child = spawn(cli.node, [cli.script, 'wo', gate, ...args], {
      env: childEnv,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => {
      if (stdout.length < LIMIT) stdout += d.toString('utf8');
    });
    child.stderr.on('data', (d: Buffer) => {
      if (stderr.length < LIMIT) stderr += d.toString('utf8');
    });
    // A hook that hangs must not hang the run: the gate then answers "refused".
    const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
    const finish = (exitCode: number | null): void => {
      clearTimeout(timer);
      let payload: Record<string, unknown> = {};
      try {
        const parsed: unknown = JSON.parse(stdout);
        if (parsed !== null && typeof parsed === 'object' && !Array.isArray(parsed))
          payload = parsed as Record<string, unknown>;
      } catch {
        payload = { reason: `${gate}_unreadable_output` };
      }
      resolve({ exitCode, payload, lines: stderr.split('\n').filter((l) => l.length > 0) });
    };
    child.on('error', () => finish(null));
    child.on('close', (code) => finish(code));
  });
}
