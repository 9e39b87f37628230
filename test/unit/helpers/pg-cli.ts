// Shared by the PostgreSQL store's tests: the CLI as a child process with a store selected.
import { spawn } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { childEnv, CLI, cliResultOf, runCli, type CliResult } from './cli';

export const CONTRACT = resolve(__dirname, '../../../../test/fixtures/contracts/valid.loop-contract.json');

export function tempRoot(name: string): string {
  return join(mkdtempSync(join(tmpdir(), 'll-pg-')), name);
}

/** Runs the CLI synchronously; `store` undefined runs it on the files under the root. */
export function cli(args: string[], env: Record<string, string> = {}): CliResult {
  return runCli(args, { env: { LOOP_LEDGER_STORE_RETRY_MS: '0', ...env } });
}

export interface Spawned {
  done: Promise<CliResult>;
  kill(): void;
}

export function cliAsync(args: string[], env: Record<string, string> = {}): Spawned {
  const child = spawn(process.execPath, [CLI, ...args], { env: childEnv(env) });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (d) => (stdout += d));
  child.stderr.on('data', (d) => (stderr += d));
  const done = new Promise<CliResult>((resolvePromise) => {
    child.on('close', (code) => resolvePromise(cliResultOf({ status: code, stdout, stderr })));
  });
  return { done, kill: () => child.kill('SIGKILL') };
}

/** Runs `tasks` with at most `limit` at a time. */
export async function pooled<T>(tasks: (() => Promise<T>)[], limit: number): Promise<T[]> {
  const results: T[] = new Array(tasks.length);
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < tasks.length) {
      const i = next++;
      results[i] = await (tasks[i] as () => Promise<T>)();
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, tasks.length) }, worker));
  return results;
}

/** ISO timestamps replaced, so two runs of one scenario at different moments compare equal. */
export function withoutClock(text: string): string {
  return text.replace(/\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?(Z|[+-]\d\d:\d\d)/g, '<time>');
}
