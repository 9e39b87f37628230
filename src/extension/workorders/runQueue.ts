// Run Queue: `loop-ledger wo run` as a child process (the CLI is the loop; the extension host
// never runs agents itself), with progress from its status lines and a Cancel that stops the
// whole process group (the CLI then stops its agent's group and exits 130).
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import type { RunSummary } from '../../app/workorders/run-queue';
import type { BuilderChoice } from './queueQuestions';

export interface QueueSettings {
  builder: BuilderChoice;
  critic: string;
  worktree: string;
  cap: number;
  /** `--parallel --max N`; undefined = the sequential pass. */
  parallelMax?: number;
}

export interface QueueResult {
  exitCode: number | null;
  summary?: RunSummary;
  stderr: string;
}

/** The builder's flags: the harness's agent config, or the custom agent commands. */
function builderArgs(b: BuilderChoice): string[] {
  return b.kind === 'config'
    ? ['--builder-config', b.path]
    : ['--builder', b.builder, '--reviewer', b.reviewer];
}

export function runQueue(
  extensionPath: string,
  task: string,
  root: string,
  s: QueueSettings,
  onLine: (line: string) => void,
  cancel: { onCancellationRequested(listener: () => void): unknown },
  /** The child's environment (cliChildEnv: the window's ledger store, if it uses one). */
  env: NodeJS.ProcessEnv,
): Promise<QueueResult> {
  const args = [
    join(extensionPath, 'dist', 'cli.js'),
    'wo',
    'run',
    task,
    ...builderArgs(s.builder),
    '--worktree',
    s.worktree,
    '--root',
    root,
    '--cap',
    String(s.cap),
  ];
  if (s.critic) args.push('--critic', s.critic);
  if (s.parallelMax !== undefined) args.push('--parallel', '--max', String(s.parallelMax));
  return new Promise((resolve) => {
    const child = spawn(process.execPath, args, {
      cwd: root,
      env,
      detached: true,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    let pending = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString('utf8')));
    child.stderr.on('data', (d: Buffer) => {
      const chunk = d.toString('utf8');
      stderr += chunk;
      pending += chunk;
      const lines = pending.split('\n');
      pending = lines.pop() ?? '';
      for (const line of lines) if (line) onLine(line);
    });
    cancel.onCancellationRequested(() => {
      try {
        process.kill(-(child.pid ?? 0), 'SIGTERM');
      } catch {
        // already finished
      }
    });
    child.on('error', (error) => resolve({ exitCode: null, stderr: String(error) }));
    child.on('close', (code) => {
      let summary: QueueResult['summary'];
      try {
        summary = JSON.parse(stdout) as QueueResult['summary'];
      } catch {
        summary = undefined;
      }
      resolve({ exitCode: code, summary, stderr });
    });
  });
}
