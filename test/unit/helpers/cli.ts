// Runs the built CLI (dist/cli.js) as a real child process, the way an agent does.
import { spawnSync, spawn } from 'node:child_process';
import { mkdtempSync, mkdirSync, writeFileSync, readFileSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

export const CLI = resolve(__dirname, '../../../../dist/cli.js');

export interface CliResult {
  code: number | null;
  stdout: string;
  stderr: string;
  /** stdout parsed as JSON (undefined when it is not JSON). */
  json: any; // eslint-disable-line @typescript-eslint/no-explicit-any
}

/** Environment for children: without NODE_OPTIONS/NODE_EXTRA_CA_CERTS (they slow every node start). */
export function childEnv(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const env = { ...process.env, ...extra };
  delete env.NODE_OPTIONS;
  delete env.NODE_EXTRA_CA_CERTS;
  return env;
}

/** A finished child's result, with stdout parsed as JSON when it is JSON. */
export function cliResultOf(r: { status: number | null; stdout: string; stderr: string }): CliResult {
  let json: unknown;
  try {
    json = JSON.parse(r.stdout);
  } catch {
    json = undefined;
  }
  return { code: r.status, stdout: r.stdout, stderr: r.stderr, json };
}

export function runCli(
  args: string[],
  options: { cwd?: string; input?: string; env?: Record<string, string> } = {},
): CliResult {
  const r = spawnSync(process.execPath, [CLI, ...args], {
    cwd: options.cwd,
    input: options.input,
    env: childEnv(options.env),
    encoding: 'utf8',
    maxBuffer: 256 * 1024 * 1024,
  });
  return cliResultOf(r);
}

/** Async variant for concurrency tests. */
export function runCliAsync(args: string[], options: { cwd?: string } = {}): Promise<CliResult> {
  return new Promise((resolvePromise) => {
    const child = spawn(process.execPath, [CLI, ...args], { cwd: options.cwd, env: childEnv() });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    child.on('close', (code) => {
      let json: unknown;
      try {
        json = JSON.parse(stdout);
      } catch {
        json = undefined;
      }
      resolvePromise({ code, stdout, stderr, json });
    });
  });
}

/** A fresh temporary workspace root. */
export function tempRoot(prefix = 'loop-ledger-'): string {
  return mkdtempSync(join(tmpdir(), prefix));
}

export function writeJson(path: string, value: unknown): string {
  mkdirSync(resolve(path, '..'), { recursive: true });
  writeFileSync(path, JSON.stringify(value, null, 2) + '\n');
  return path;
}

export function writeText(path: string, text: string | Buffer): string {
  mkdirSync(resolve(path, '..'), { recursive: true });
  writeFileSync(path, text);
  return path;
}

export function ledgerPath(root: string, session: string): string {
  return join(root, '.loop', 'ledgers', `${session}.json`);
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export function readLedger(root: string, session: string): any {
  return JSON.parse(readFileSync(ledgerPath(root, session), 'utf8'));
}

export function ledgerExists(root: string, session: string): boolean {
  return existsSync(ledgerPath(root, session));
}

/** A valid contract whose evidence commands resolve on any POSIX machine. */
export function sampleContract(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    purpose: 'Raise test coverage of the parser',
    owner: 'parser team',
    starting_state: 'coverage at 60%',
    inputs: ['src/parser'],
    expected_outputs: ['tests that cover the parser'],
    success_criteria: ['coverage >= 80'],
    failure_criteria: ['any existing test fails'],
    dependencies: ['node', 'registry'],
    iteration_limit: 5,
    timeout_behaviour: 'stop and record pause',
    escalation_path: 'open an issue for the parser team',
    quality_rubric: [
      {
        dimension: 'hard-one',
        evidence_command: 'ls -1 | wc -l',
        baseline: 10,
        target: 0,
        weight: 20,
        failure_threshold: 0,
        direction: 'lower-is-better',
        hard_gate: true,
      },
      {
        dimension: 'soft-one',
        evidence_command: 'echo 0',
        baseline: 0,
        target: 100,
        weight: 80,
        failure_threshold: 50,
        direction: 'higher-is-better',
        hard_gate: false,
      },
    ],
    ...overrides,
  };
}
