// `loop-ledger wo run <task> [--builder-config agents.toml | --builder CMD --reviewer CMD]
// [--reviewer CMD] [--critic CMD] [--critics N] [--cap N] [--in-place] [--worktree DIR]
// [--root DIR] [--timeout SECONDS] [--parallel [--max N]] [--no-checkpoint]` — the sequential pass, or rounds. By default each attempt is built by a
// `loop-ledger run` harness (allowed globs = "Files to touch", checks = runnable acceptance).
// Exit 0 every work order done and the merge gate allows the branch, 1 escalation, gates
// refused (task review, ship or merge gate) or stopped (kill switch, budget), 2 usage,
// 3 another `wo run` holds this task, 130 cancelled (SIGINT/SIGTERM: agents are stopped).
import { timeoutTooLong } from '../../../engine/timeout-limit';
import { existsSync, realpathSync } from 'node:fs';
import { isAbsolute, join, relative, resolve } from 'node:path';
import { loadAgentConfig } from '../../../app/run';
import { Refused } from '../../../app/outcome';
import type { RunOptions } from '../../../app/workorders/context';
import { runQueue } from '../../../app/workorders/run-queue';
import { workOrdersDir } from '../../../app/workorders/context';
import { confineWoWrite, isDirectory } from '../../../drivers/workorders/files';
import { git, isWorkTree } from '../../../drivers/workorders/git';
import { acquireRunLock } from '../../../drivers/workorders/run-lock';
import { EXIT } from '../../../engine/refusal';
import { LockObstructedError } from '../../../store/lock';
import { confineWrite, OutsideRootError } from '../../../store/confine';
import { OBS_LOG } from '../../../drivers/workorders/artifacts';
import { err, out, parseFlags } from './io';

const VALUE_FLAGS = [
  '--builder',
  '--reviewer',
  '--critic',
  '--critics',
  '--cap',
  '--worktree',
  '--root',
  '--timeout',
  '--max',
  '--builder-config',
];

function usage(message: string): number {
  err(`loop-ledger wo run: ${message}`);
  return 2;
}

/** The task folder must not be tracked by the worktree: a reset would roll back its sidecars. */
function taskInsideWorktree(task: string, worktree: string): boolean {
  const rel = relative(worktree, task);
  if (rel === '' || (!rel.startsWith('..') && !isAbsolute(rel))) {
    return git(worktree, ['check-ignore', '-q', '--', rel === '' ? '.' : rel]).code !== 0;
  }
  return false;
}

/**
 * `--builder CMD` (an agent command, with `--reviewer`), else the default: a `loop-ledger run`
 * harness per attempt with `--builder-config` (default `<task>/agents.toml`). Returns the
 * problem as text when there is one.
 */
function chooseBuilder(
  values: Map<string, string>,
  task: string,
  worktree: string,
): RunOptions['builder'] | string {
  const command = values.get('--builder');
  const config = values.get('--builder-config');
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
    loadAgentConfig(worktree, agentConfig, process.env.LOOP_LEDGER_PYTHON, process.env);
  } catch (error) {
    if (error instanceof Refused)
      return `--builder-config ${typed}: ${error.findings.map((f) => f.message.replace(/^--agent-config \S+:? ?/, '')).join('; ')}`;
    throw error;
  }
  return { agentConfig };
}

export async function main(argv: string[]): Promise<number> {
  const known = new Set([...VALUE_FLAGS, '--in-place', '--parallel', '--no-checkpoint']);
  for (let i = 0; i < argv.length; i += 1) {
    const arg = argv[i] ?? '';
    if (arg.startsWith('--') && !known.has(arg.split('=')[0] ?? ''))
      return usage(`unknown flag ${JSON.stringify(arg.slice(0, 80))}`);
    if (VALUE_FLAGS.includes(arg)) i += 1;
  }
  const flags = parseFlags(argv, VALUE_FLAGS, ['--in-place', '--parallel', '--no-checkpoint']);
  const task = flags.positionals[0];
  if (!task) return usage('<task-folder> is required');
  if (!isDirectory(workOrdersDir(task))) return usage(`${workOrdersDir(task)}: no work-orders folder`);
  if (flags.switches.has('--parallel') && flags.switches.has('--in-place'))
    return usage('--parallel and --in-place exclude each other (in-place builds share one environment)');
  const maxText = flags.values.get('--max');
  if (maxText !== undefined && !flags.switches.has('--parallel')) return usage('--max needs --parallel');
  if (maxText !== undefined && (!/^[0-9]+$/.test(maxText) || Number(maxText) === 0))
    return usage(`--max: ${JSON.stringify(maxText)} is not a positive integer`);
  const parallelMax = flags.switches.has('--parallel') ? Number(maxText ?? '8') : undefined;
  const cap = flags.values.get('--cap') ?? '3';
  if (!/^[0-9]+$/.test(cap)) return usage(`--cap: ${JSON.stringify(cap)} is not a non-negative integer`);
  const critics = flags.values.get('--critics') ?? '1';
  if (!/^[0-9]+$/.test(critics))
    return usage(`--critics: ${JSON.stringify(critics)} is not a non-negative integer`);
  const timeout = flags.values.get('--timeout') ?? '1800';
  if (!/^[0-9]+$/.test(timeout) || Number(timeout) === 0)
    return usage(`--timeout: ${JSON.stringify(timeout)} is not a positive number of seconds`);
  const timeoutLimit = timeoutTooLong('--timeout', Number(timeout));
  if (timeoutLimit) return usage(timeoutLimit);
  const worktree = resolve(flags.values.get('--worktree') ?? process.cwd());
  if (!isWorkTree(worktree)) return usage(`--worktree ${worktree}: not a git work tree`);
  const taskAbs = resolve(task);
  if (taskInsideWorktree(taskAbs, worktree))
    return usage(
      `${taskAbs}: the task folder is tracked by the worktree; keep it outside (or git-ignored) so a reset never rolls back its sidecars`,
    );

  const builder = chooseBuilder(flags.values, taskAbs, worktree);
  if (typeof builder === 'string') return usage(builder);
  const reviewer = flags.values.get('--reviewer') || undefined;
  if ('command' in builder && !reviewer)
    return usage('--reviewer CMD is required with --builder (exit 0 = pass, or it writes $WO_REVIEW_FILE)');

  // The obs log is appended to as work orders end: a link or a FIFO in its place is refused now,
  // before anything runs, not after the first build; so is a work-orders folder leading out of
  // the task (sidecars and HALT markers are written there).
  const dir = workOrdersDir(taskAbs);
  try {
    confineWrite(dir, join(dir, OBS_LOG));
    confineWoWrite(join(dir, OBS_LOG));
  } catch (error) {
    if (!(error instanceof OutsideRootError)) throw error;
    err(`loop-ledger wo run: ${error.message}`);
    return 2;
  }
  let lock;
  try {
    lock = acquireRunLock(dir);
  } catch (error) {
    // A folder with content where the lock goes, or the system refusing the file: one line.
    err(`loop-ledger wo run: ${(error as Error).message}`);
    return error instanceof LockObstructedError ? EXIT.system : 2;
  }
  if (!lock.ok) {
    err(`loop-ledger wo run: busy: ${lock.message}`);
    return 3;
  }
  const controller = new AbortController();
  const onSignal = (): void => controller.abort();
  process.once('SIGINT', onSignal);
  process.once('SIGTERM', onSignal);
  try {
    const summary = await runQueue({
      task: taskAbs,
      worktree,
      root: resolve(flags.values.get('--root') ?? process.cwd()),
      builder,
      reviewer,
      cli: { node: process.execPath, script: process.argv[1] ?? '' },
      critic: flags.values.get('--critic') || undefined,
      criticsExpected: Number(critics),
      cap,
      inPlace: flags.switches.has('--in-place'),
      checkpoint: !flags.switches.has('--no-checkpoint'),
      parallelMax,
      timeoutMs: Number(timeout) * 1000,
      signal: controller.signal,
      log: err,
    });
    out(summary);
    if (summary.gates) {
      const g = summary.gates;
      err(
        `wo-run gates task_review=${g.task_review.verdict} ship_ok=${g.ship_gate.exit_code === 0} merge_ok=${g.merge_gate.exit_code === 0} auto_merge=${g.merge_gate.auto_merge_allowed === true} pr_allowed=${g.mode_gate.allowed === true} pr_reason=${String(g.mode_gate.reason)}`,
      );
    }
    err(
      `wo-run outcome=${summary.outcome} wos=${summary.work_orders.length} done=${summary.work_orders.filter((w) => w.status === 'done').length} terminal=${summary.work_orders.filter((w) => w.terminal).length}`,
    );
    if (summary.outcome === 'cancelled') return 130;
    return summary.outcome === 'complete' ? 0 : 1;
  } catch (error) {
    if (!(error instanceof OutsideRootError)) throw error;
    err(`loop-ledger wo run: ${error.message}`);
    return 2;
  } finally {
    process.removeListener('SIGINT', onSignal);
    process.removeListener('SIGTERM', onSignal);
    lock.release();
  }
}
