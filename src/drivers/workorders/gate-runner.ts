// Runs one exit gate of `wo run` as its drop-in kernel (`loop-ledger wo ship-gate|merge-gate|
// mode-gate <task> …`) in a child process, so the loop reads exactly what a person or the
// original skill would: the same JSON, the same status line, the same exit code (which beats the
// JSON), and the same $WO_* hooks.
import { runProcess } from '../process/run-process';
import type { CliProgram } from './harness-builder';

export interface GateAnswer {
  exitCode: number | null;
  payload: Record<string, unknown>;
  /** The kernel's stderr status line(s), forwarded verbatim. */
  lines: string[];
}

const LIMIT = 256 * 1024;

export async function runGate(
  cli: CliProgram,
  gate: 'ship-gate' | 'merge-gate' | 'mode-gate',
  args: string[],
  env: NodeJS.ProcessEnv,
  timeoutMs: number,
): Promise<GateAnswer> {
  const childEnv = { ...env };
  delete childEnv.NODE_OPTIONS;
  // A hook that hangs must not hang the run: the gate then answers "refused".
  const r = await runProcess({
    cmd: [cli.node, cli.script, 'wo', gate, ...args],
    cwd: process.cwd(),
    env: childEnv,
    input: null,
    timeoutMs,
    keepBytes: LIMIT,
  });
  let payload: Record<string, unknown> = {};
  try {
    const parsed: unknown = JSON.parse(r.stdout);
    if (parsed !== null && typeof parsed === 'object' && !Array.isArray(parsed))
      payload = parsed as Record<string, unknown>;
  } catch {
    payload = { reason: `${gate}_unreadable_output` };
  }
  const exitCode = r.startError !== null || r.timedOut ? null : r.exitCode;
  return { exitCode, payload, lines: r.stderr.split('\n').filter((l) => l.length > 0) };
}
