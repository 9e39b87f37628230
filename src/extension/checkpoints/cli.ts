// Runs `loop-ledger checkpoint …` as a child process of the extension host. The checkpoint
// operations run git synchronously (spawnSync) and a restore reads the whole workspace; run in
// the extension host they would freeze every extension in the window. In a child process they
// are the very operation the CLI runs, the lock wait included, and the host only awaits it. On a
// store window the child reads and records in that store (the commits stay in this repository).
import { execFile } from 'node:child_process';
import { join } from 'node:path';
import type { StoreWrites } from '../sessions/sessionSource';
import { cliChildEnv } from '../store/childEnv';

export interface CliResult {
  code: number;
  /** The `--json` payload on success; empty otherwise. */
  json: Record<string, unknown>;
  /** The CLI's own message lines when it refused. */
  problems: string[];
}

const TIMEOUT_MS = 10 * 60_000;

export async function runCheckpointCli(
  extensionPath: string,
  root: string,
  args: readonly string[],
  store: StoreWrites | undefined,
): Promise<CliResult> {
  const env = await cliChildEnv(store);
  const argv = [join(extensionPath, 'dist', 'cli.js'), 'checkpoint', ...args, '--root', root, '--json'];
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      argv,
      { cwd: root, env, timeout: TIMEOUT_MS, maxBuffer: 64 * 1024 * 1024, windowsHide: true },
      (error, stdout, stderr) => {
        const code = error ? (typeof error.code === 'number' ? error.code : 1) : 0;
        let json: Record<string, unknown> = {};
        if (code === 0) {
          try {
            json = JSON.parse(stdout) as Record<string, unknown>;
          } catch {
            return resolve({ code: 1, json, problems: ['the loop-ledger CLI printed no JSON'] });
          }
        }
        const problems = stderr
          .split('\n')
          .map((l) => l.trim())
          .filter((l) => l !== '');
        if (code !== 0 && problems.length === 0) problems.push(error?.message ?? `exit ${code}`);
        resolve({ code, json, problems });
      },
    );
  });
}
