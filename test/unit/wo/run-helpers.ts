// Runs `loop-ledger wo run` as a real child process over a fixture task with the fake agents
// of test/fixtures/wo/ (node scripts; no network, no model).
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { CLI, childEnv, cliResultOf, type CliResult } from '../helpers/cli';
import { FIXTURES, type Task } from './fixture';

export const agent = (name: string): string => `"${process.execPath}" "${join(FIXTURES, `${name}.mjs`)}"`;

export interface RunArgs {
  plan?: Record<string, Record<string, string[]>>;
  extra?: string[];
  env?: Record<string, string>;
  critic?: boolean;
  builder?: string;
  /**
   * The default builder (a `loop-ledger run` harness per attempt): the agent config to pass as
   * --builder-config, or null to pass neither --builder nor --builder-config.
   */
  builderConfig?: string | null;
  /** With builderConfig: a --reviewer override (default: none, the receipt is the review). */
  reviewer?: string;
}

function argsFor(t: Task, a: RunArgs): { args: string[]; env: NodeJS.ProcessEnv } {
  const env: Record<string, string> = { ...(a.env ?? {}) };
  if (a.plan) {
    const planPath = join(t.root, 'plan.json');
    writeFileSync(planPath, JSON.stringify(a.plan));
    env.FAKE_PLAN = planPath;
  }
  env.FAKE_COUNT = join(t.root, 'agent-calls.log');
  const args = [
    CLI,
    'wo',
    'run',
    t.task,
    '--worktree',
    t.worktree,
    '--root',
    t.root,
    ...(a.builderConfig !== undefined
      ? [
          ...(a.builderConfig === null ? [] : ['--builder-config', a.builderConfig]),
          ...(a.reviewer ? ['--reviewer', a.reviewer] : []),
        ]
      : ['--builder', a.builder ?? agent('builder'), '--reviewer', agent('reviewer')]),
    ...(a.critic === false ? [] : ['--critic', agent('critic')]),
    ...(a.extra ?? []),
  ];
  return { args, env: childEnv(env) };
}

export function woRun(t: Task, a: RunArgs = {}): CliResult {
  const { args, env } = argsFor(t, a);
  return cliResultOf(spawnSync(process.execPath, args, { env, encoding: 'utf8', timeout: 120_000 }));
}

/** Starts `wo run` without waiting (cancel tests). */
export function woRunAsync(t: Task, a: RunArgs = {}) {
  const { args, env } = argsFor(t, a);
  return spawn(process.execPath, args, { env, stdio: ['ignore', 'pipe', 'pipe'] });
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- test reads of arbitrary JSON
export function readJson(path: string): any {
  return JSON.parse(readFileSync(path, 'utf8'));
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- test reads of arbitrary JSON
export function obsRecords(t: Task): any[] {
  const path = join(t.dir, 'loop-obs.ndjson');
  if (!existsSync(path)) return [];
  return readFileSync(path, 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l));
}

/** How many times each agent phase ran for a work order (the fake agents log each call). */
export function calls(t: Task): string[] {
  const path = join(t.root, 'agent-calls.log');
  return existsSync(path) ? readFileSync(path, 'utf8').split('\n').filter(Boolean) : [];
}
