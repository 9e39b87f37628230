// Runs one role's agent and one deterministic check the way the original harness does,
// saving prompt, stdout, stderr and the parsed result in the run directory.
import type { AgentSpec } from '../../engine/run/agent-config';
import { excerpt, type CheckRecord } from '../../engine/run/receipt';
import { agentEnv, parseAgentStdout } from '../../engine/run/role-io';
import { AGENT_TIMEOUT_CODE, CHECK_TIMEOUT_CODE, START_FAILED_CODE } from '../../engine/run/stop-rules';
import type { RunDirectory } from './artifacts';
import { runProcess } from '../process/run-process';

export interface AgentRun {
  code: number;
  /** stdout parsed as JSON; undefined when it was not JSON. */
  result: unknown;
  cancelled: boolean;
}

export interface SpawnContext {
  repo: string;
  parentEnv: Record<string, string | undefined>;
  signal?: AbortSignal;
  onOutput?: (source: string, stream: 'stdout' | 'stderr', text: string) => void;
}

/** `folder` is relative to the run dir (`explorer`, `attempts/01`). */
export async function runAgent(
  spec: AgentSpec,
  prompt: string,
  run: RunDirectory,
  folder: string,
  extraEnv: Record<string, string>,
  ctx: SpawnContext,
): Promise<AgentRun> {
  const prefix = `${folder}/${spec.role}`;
  await run.write(`${prefix}-prompt.md`, prompt);
  const r = await runProcess({
    cmd: spec.cmd,
    cwd: ctx.repo,
    env: agentEnv(ctx.parentEnv, { ...extraEnv, LOOP_ROLE: spec.role, LOOP_REPO: ctx.repo }),
    input: prompt,
    // A timeout of 0 (or less) ends the agent at once, as in the original.
    timeoutMs: Math.max(1, spec.timeoutSeconds * 1000),
    signal: ctx.signal,
    onOutput: ctx.onOutput
      ? (stream, chunk) => ctx.onOutput?.(spec.role, stream, chunk.toString('utf8'))
      : undefined,
  });
  let code: number;
  let stderr = r.stderr;
  if (r.startError !== null) {
    code = START_FAILED_CODE;
    stderr = `AGENT_START_FAILED: ${spec.role}: ${r.startError}\n`;
  } else if (r.timedOut) {
    code = AGENT_TIMEOUT_CODE;
    stderr += `\nTIMEOUT: ${spec.role} exceeded ${spec.timeoutSeconds} seconds\n`;
  } else {
    code = r.code ?? -1;
  }
  if (r.cancelled) stderr += `\nCANCELLED: ${spec.role} was cancelled\n`;
  await run.write(`${prefix}-stdout.txt`, r.stdout);
  await run.write(`${prefix}-stderr.txt`, stderr);
  const result = parseAgentStdout(r.stdout);
  // JSON `null` counts as "not parsed", as in the original.
  if (result !== undefined && result !== null) await run.writeJson(`${prefix}-result.json`, result);
  return { code, result: result === null ? undefined : result, cancelled: r.cancelled };
}

/** One check: `sh -c`, stdin /dev/null, scrubbed env without role variables, its own group. */
export async function runCheck(
  command: string,
  index: number,
  attemptFolder: string,
  timeoutSeconds: number,
  run: RunDirectory,
  ctx: SpawnContext,
): Promise<{ record: CheckRecord; cancelled: boolean }> {
  const r = await runProcess({
    cmd: command,
    cwd: ctx.repo,
    env: agentEnv(ctx.parentEnv, {}),
    input: null,
    timeoutMs: timeoutSeconds * 1000,
    signal: ctx.signal,
    onOutput: ctx.onOutput
      ? (stream, chunk) => ctx.onOutput?.(`check ${index}`, stream, chunk.toString('utf8'))
      : undefined,
  });
  let stderr = r.stderr;
  let returncode: number;
  if (r.startError !== null) {
    returncode = START_FAILED_CODE;
    stderr = `CHECK_START_FAILED: ${r.startError}\n`;
  } else if (r.timedOut) {
    returncode = CHECK_TIMEOUT_CODE;
    stderr += `\nTIMEOUT: check exceeded ${timeoutSeconds} seconds\n`;
  } else {
    returncode = r.code ?? -1;
  }
  const stem = `${attemptFolder}/checks/${String(index).padStart(2, '0')}`;
  await run.write(`${stem}.stdout`, r.stdout);
  await run.write(`${stem}.stderr`, stderr);
  return {
    cancelled: r.cancelled,
    record: {
      command,
      returncode,
      stdout: run.repoRelative(`${stem}.stdout`),
      stderr: run.repoRelative(`${stem}.stderr`),
      stdout_excerpt: excerpt(r.stdout),
      stderr_excerpt: excerpt(stderr),
      timed_out: r.timedOut,
    },
  };
}
