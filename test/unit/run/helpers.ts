// A small git repository holding the sample target, and the CLI's `run` as a child process with
// the fake agents of test/fixtures/run (behaviour chosen by LOOP_FIXTURE_MODE).
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { cpSync, existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { CLI, childEnv, tempRoot } from '../helpers/cli';

export const FIXTURES = resolve(__dirname, '../../../../test/fixtures/run');
export const AGENTS = join(FIXTURES, 'agents.toml');
export const QUICK_TIMEOUT_AGENTS = join(FIXTURES, 'agents-quick-timeout.toml');
export const ALLOW = ['--allow', 'sample-target/src/time/**', '--allow', 'sample-target/tests/**'];
export const CHECK = ['--check', 'node sample-target/tests/check.mjs'];

function git(repo: string, ...args: string[]): void {
  const r = spawnSync('git', args, { cwd: repo, encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`git ${args.join(' ')}: ${r.stderr}`);
}

/** A fresh repository with the sample target committed. */
export function sampleRepo(): string {
  const repo = tempRoot('loop-run-');
  cpSync(join(FIXTURES, 'sample-target'), join(repo, 'sample-target'), { recursive: true });
  git(repo, 'init', '-q');
  git(repo, 'config', 'user.email', 'test@example.com');
  git(repo, 'config', 'user.name', 'test');
  git(repo, 'add', '-A');
  git(repo, 'commit', '-qm', 'sample target');
  return repo;
}

export interface RunResult {
  code: number | null;
  stdout: string;
  stderr: string;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  json: any;
}

function parsed(stdout: string): unknown {
  try {
    return JSON.parse(stdout);
  } catch {
    return undefined;
  }
}

export function runLoop(repo: string, args: string[], env: Record<string, string> = {}): RunResult {
  const r = spawnSync(process.execPath, [CLI, 'run', ...args], {
    cwd: repo,
    env: childEnv(env),
    encoding: 'utf8',
    timeout: 60_000,
  });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr, json: parsed(r.stdout) };
}

/** `run` with the standard objective, config, globs and check, plus `extra`. */
export function runSample(
  repo: string,
  mode: string,
  extra: string[] = [],
  env: Record<string, string> = {},
) {
  return runLoop(
    repo,
    [
      '--objective',
      'Implement parseDuration',
      '--agent-config',
      AGENTS,
      ...ALLOW,
      ...CHECK,
      '--print-json',
      ...extra,
    ],
    { LOOP_FIXTURE_MODE: mode, ...env },
  );
}

export function startLoop(repo: string, args: string[], env: Record<string, string>): ChildProcess {
  return spawn(process.execPath, [CLI, 'run', ...args], { cwd: repo, env: childEnv(env) });
}

export function validate(file: string): RunResult {
  const r = spawnSync(process.execPath, [CLI, 'validate', file], { env: childEnv(), encoding: 'utf8' });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr, json: parsed(r.stdout) };
}

export function runDirOf(repo: string, result: RunResult): string {
  return join(repo, result.json.artifacts.run_dir);
}

export function readText(path: string): string {
  return readFileSync(path, 'utf8');
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export function readJson(path: string): any {
  return JSON.parse(readFileSync(path, 'utf8'));
}

/** The only run directory under `.loop/runs`. */
export function onlyRunDir(repo: string): string {
  const root = join(repo, '.loop', 'runs');
  const names = existsSync(root) ? readdirSync(root) : [];
  if (names.length !== 1) throw new Error(`expected one run dir, found ${names.join(', ')}`);
  return join(root, names[0] as string);
}

export async function waitFor(predicate: () => boolean, ms = 15_000): Promise<void> {
  const until = Date.now() + ms;
  while (!predicate()) {
    if (Date.now() > until) throw new Error('timed out waiting');
    await new Promise((r) => setTimeout(r, 50));
  }
}

export function exited(child: ChildProcess): Promise<number | null> {
  return new Promise((r) => {
    if (child.exitCode !== null) r(child.exitCode);
    else child.on('exit', (code) => r(code));
  });
}

export function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}
