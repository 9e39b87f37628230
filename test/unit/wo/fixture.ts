// Builds work-order fixtures: a task folder with `work-orders/wo-NN-<slug>.md` files whose
// grounding is clean, and (for `wo run`) a separate git worktree the builds commit into.
import { execFileSync } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { tempRoot } from '../helpers/cli';

export const FIXTURES = resolve(__dirname, '../../../../test/fixtures/wo');

export interface WoSpec {
  n: number;
  status?: string;
  blockedBy?: number[];
  extra?: string;
  files?: string[];
  /** Runnable acceptance commands, written as `Acceptance: \`cmd\`` lines under `## Goal`. */
  acceptance?: string[];
}

export const pad = (n: number): string => `wo-${String(n).padStart(2, '0')}`;

export function woText(spec: WoSpec): string {
  const id = pad(spec.n);
  const deps = (spec.blockedBy ?? []).map((d) => `local:t#${pad(d)}`);
  const status = spec.status ?? (deps.length > 0 ? 'blocked' : 'ready');
  return [
    '---',
    `id: local:t#${id}`,
    'kind: work-order',
    'schema_version: "1.0"',
    `title: Work order ${spec.n}`,
    'parent: local:t',
    `status: ${status}`,
    'blocks: []',
    `blocked_by: [${deps.join(', ')}]`,
    'verified: true',
    'coverage_status: covered',
    'lockfile: []',
    'drift_guard:',
    '  symbols_resolved: true',
    '  acceptance_runnable: true',
    'coverage_override: null',
    'compiled_at: 2026-06-01T10:00:00Z',
    'custom_key: keep   # an unknown key, kept byte for byte',
    ...(spec.extra ? [spec.extra] : []),
    '---',
    '## Goal',
    `Build part ${spec.n}.`,
    ...(spec.acceptance ?? []).map((c) => `- **Acceptance:** \`${c}\``),
    '## Files to touch',
    ...(spec.files ?? [`src/${id}.txt`]).map((f) => `- \`${f}\``),
    '## Done =',
    '- it exists',
    '',
  ].join('\n');
}

export interface Task {
  root: string;
  task: string;
  dir: string;
  worktree: string;
  file(n: number): string;
}

export function makeTask(specs: WoSpec[], options: { git?: boolean } = {}): Task {
  const root = tempRoot('wo-');
  const task = join(root, 'task');
  const dir = join(task, 'work-orders');
  mkdirSync(dir, { recursive: true });
  for (const spec of specs) writeFileSync(join(dir, `${pad(spec.n)}-part-${spec.n}.md`), woText(spec));
  const worktree = join(root, 'code');
  if (options.git) {
    mkdirSync(worktree);
    const git = (...args: string[]) => execFileSync('git', args, { cwd: worktree, stdio: 'ignore' });
    git('init', '-q', '-b', 'main');
    git('config', 'user.email', 't@example.com');
    git('config', 'user.name', 'test');
    writeFileSync(join(worktree, 'README.md'), 'base\n');
    git('add', '-A');
    git('commit', '-qm', 'base');
  }
  return { root, task, dir, worktree, file: (n) => join(dir, `${pad(n)}-part-${n}.md`) };
}

export function statusOf(path: string): string {
  const m = /^status: (\S+)/m.exec(readFileSync(path, 'utf8'));
  return m?.[1] ?? '';
}

export function gitHead(cwd: string): string {
  return execFileSync('git', ['rev-parse', 'HEAD'], { cwd, encoding: 'utf8' }).trim();
}
