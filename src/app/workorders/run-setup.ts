// What `wo run` checks and takes before its loop starts, as operations a shell calls: the
// worktree, the builder, and the work-orders folder made safe to write and locked to this run.
import { existsSync, realpathSync } from 'node:fs';
import { isAbsolute, join, relative, resolve } from 'node:path';
import { EXIT } from '../../engine/refusal';
import { OBS_LOG } from '../../drivers/workorders/artifacts';
import { confineWoWrite } from '../../drivers/workorders/files';
import { git, isWorkTree } from '../../drivers/workorders/git';
import { acquireRunLock } from '../../drivers/workorders/run-lock';
import { confineWrite, OutsideRootError } from '../../store/confine';
import { LockObstructedError } from '../../store/lock';
import { Refused } from '../outcome';
import { loadAgentConfig } from '../run/operation';
import type { RunOptions } from './context';

/** The task folder must not be tracked by the worktree: a reset would roll back its sidecars. */
function taskInsideWorktree(task: string, worktree: string): boolean {
  const rel = relative(worktree, task);
  if (rel === '' || (!rel.startsWith('..') && !isAbsolute(rel))) {
    return git(worktree, ['check-ignore', '-q', '--', rel === '' ? '.' : rel]).code !== 0;
  }
  return false;
}

/** What is wrong with running `task`'s work orders in `worktree` (both absolute), if anything. */
export function worktreeProblem(worktree: string, task: string): string | undefined {
  if (!isWorkTree(worktree)) return `--worktree ${worktree}: not a git work tree`;
  if (taskInsideWorktree(task, worktree))
    return `${task}: the task folder is tracked by the worktree; keep it outside (or git-ignored) so a reset never rolls back its sidecars`;
  return undefined;
}

/**
 * `--builder CMD` (an agent command, with `--reviewer`), else the default: a `loop-ledger run`
 * harness per attempt with `--builder-config` (default `<task>/agents.toml`). Returns the
 * problem as text when there is one.
 */
export function chooseBuilder(
  flags: { command?: string; config?: string },
  task: string,
  worktree: string,
  env: NodeJS.ProcessEnv,
): RunOptions['builder'] | string {
  const { command, config } = flags;
  if (command !== undefined && config !== undefined)
    return '--builder and --builder-config exclude each other (an agent command, or the loop-ledger run harness)';
  if (command !== undefined) {
    if (!command.trim()) return '--builder: the command is empty';
    return { command };
  }
  const typed = config ?? join(task, 'agents.toml');
  if (config === undefined && !existsSync(typed))
    return `no builder: pass --builder-config agents.toml (the loop-ledger run agent config; default ${typed}) or --builder CMD --reviewer CMD`;
  const agentConfig = resolve(typed);
  const top = git(worktree, ['rev-parse', '--show-toplevel']).stdout.trim();
  if (!top || realpathSync(top) !== realpathSync(worktree))
    return `--worktree ${worktree}: the loop-ledger run builder needs the top of a git work tree (${top || 'none'})`;
  try {
    loadAgentConfig(worktree, agentConfig, env.LOOP_LEDGER_PYTHON, env);
  } catch (error) {
    if (error instanceof Refused)
      return `--builder-config ${typed}: ${error.findings.map((f) => f.message.replace(/^--agent-config \S+:? ?/, '')).join('; ')}`;
    throw error;
  }
  return { agentConfig };
}

export type RunFolderClaim =
  { ok: true; release: () => void } | { ok: false; exitCode: number; message: string };

/**
 * Makes the work-orders folder ready for one run: the obs log is appended to as work orders
 * end, so a link or a FIFO in its place is refused now, before anything runs, not after the
 * first build; so is a folder leading out of the task (sidecars and HALT markers are written
 * there). Then the run lock: busy is exit 3, an obstructed lock the system exit.
 */
export function claimRunFolder(dir: string): RunFolderClaim {
  try {
    confineWrite(dir, join(dir, OBS_LOG));
    confineWoWrite(join(dir, OBS_LOG));
  } catch (error) {
    if (!(error instanceof OutsideRootError)) throw error;
    return { ok: false, exitCode: 2, message: error.message };
  }
  let lock;
  try {
    lock = acquireRunLock(dir);
  } catch (error) {
    // A folder with content where the lock goes, or the system refusing the file: one line.
    return {
      ok: false,
      exitCode: error instanceof LockObstructedError ? EXIT.system : 2,
      message: (error as Error).message,
    };
  }
  if (!lock.ok) return { ok: false, exitCode: 3, message: `busy: ${lock.message}` };
  return { ok: true, release: lock.release };
}
