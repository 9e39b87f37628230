// The environment hooks the original kernels read ($WO_SHIP_GATE_CMD, $WO_RUN_STATE_CMD,
// $WO_PROJECT_STATE_CMD, $WO_FM_READ_CMD, $WO_BUDGET_CMD): each names a program run with
// arguments (no shell), stdout captured, bounded by a timeout so a hook can never hang the loop.
import { spawnSync } from 'node:child_process';

export interface HookResult {
  exitCode: number;
  stdout: string;
}

const HOOK_TIMEOUT_MS = 60_000;

export function runHook(command: string, args: string[], cwd?: string): HookResult {
  const r = spawnSync(command, args, {
    cwd,
    encoding: 'utf8',
    timeout: HOOK_TIMEOUT_MS,
    killSignal: 'SIGKILL',
    maxBuffer: 64 * 1024 * 1024,
  });
  if (r.error) return { exitCode: 127, stdout: '' };
  return { exitCode: r.status ?? 1, stdout: r.stdout ?? '' };
}

/** The hook named by `variable`, when set and non-empty. */
export function hookFrom(variable: string, env: NodeJS.ProcessEnv = process.env): string | undefined {
  const value = env[variable];
  return value === undefined || value === '' ? undefined : value;
}
