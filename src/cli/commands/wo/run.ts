// `loop-ledger wo run <task> [--builder-config agents.toml | --builder CMD --reviewer CMD]
// [--reviewer CMD] [--critic CMD] [--critics N] [--cap N] [--in-place] [--worktree DIR]
// [--root DIR] [--timeout SECONDS] [--parallel [--max N]] [--no-checkpoint] [--store URL]
// [--project NAME]` — the sequential pass, or rounds. The ledgers go to the store that --store (or
// LOOP_LEDGER_STORE) names, as every command's do; the queue's files stay here. By default each attempt is built by a
// `loop-ledger run` harness (allowed globs = "Files to touch", checks = runnable acceptance).
// Exit 0 every work order done and the merge gate allows the branch, 1 escalation, gates
// refused (task review, ship or merge gate) or stopped (kill switch, budget), 2 usage,
// 3 another `wo run` holds this task, 130 cancelled (SIGINT/SIGTERM: agents are stopped).
import { timeoutTooLong } from '../../../engine/timeout-limit';
import { resolve } from 'node:path';
import { runQueue } from '../../../app/workorders/run-queue';
import { workOrdersDir } from '../../../app/workorders/context';
import { isDirectory } from '../../../app/workorders/folders';
import { chooseBuilder, claimRunFolder, worktreeProblem } from '../../../app/workorders/run-setup';
import { OutsideRootError } from '../../../store/confine';
import { err, out, parseKernelFlags } from './io';
import { handDownStoreFlags, rawRequestBase, rawStore } from '../../raw-store';
import { UsageError } from '../../usage-error';

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
  '--store',
  '--project',
];

function usage(message: string): number {
  err(`loop-ledger wo run: ${message}`);
  return 2;
}

export async function main(argv: string[]): Promise<number> {
  const known = new Set([...VALUE_FLAGS, '--in-place', '--parallel', '--no-checkpoint']);
  for (let i = 0; i < argv.length; i += 1) {
    const arg = argv[i] ?? '';
    if (arg.startsWith('--') && !known.has(arg.split('=')[0] ?? ''))
      return usage(`unknown flag ${JSON.stringify(arg.slice(0, 80))}`);
    if (VALUE_FLAGS.includes(arg)) i += 1;
  }
  const flags = parseKernelFlags(argv, VALUE_FLAGS, ['--in-place', '--parallel', '--no-checkpoint']);
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
  const taskAbs = resolve(task);
  const problem = worktreeProblem(worktree, taskAbs);
  if (problem !== undefined) return usage(problem);

  const builder = chooseBuilder(
    { command: flags.values.get('--builder'), config: flags.values.get('--builder-config') },
    taskAbs,
    worktree,
    process.env,
  );
  if (typeof builder === 'string') return usage(builder);
  const reviewer = flags.values.get('--reviewer') || undefined;
  if ('command' in builder && !reviewer)
    return usage('--reviewer CMD is required with --builder (exit 0 = pass, or it writes $WO_REVIEW_FILE)');

  const root = resolve(flags.values.get('--root') ?? process.cwd());
  let store;
  try {
    const given = { store: flags.values.get('--store'), project: flags.values.get('--project') };
    store = rawStore(root, given);
    handDownStoreFlags(given);
  } catch (error) {
    if (error instanceof UsageError) return usage(error.message);
    throw error;
  }
  // Before any work: a store that cannot be reached (or has no schema) stops the run here, as it
  // would stop `run` and `repeat`; later failures are reported and never stop the queue.
  const reachable = await store?.check();
  if (reachable !== undefined && reachable.exitCode !== 0) {
    await store?.end();
    for (const f of reachable.findings) err(`loop-ledger wo run: ${f.message}`);
    return reachable.exitCode;
  }
  const lock = claimRunFolder(workOrdersDir(taskAbs));
  if (!lock.ok) {
    err(`loop-ledger wo run: ${lock.message}`);
    return lock.exitCode;
  }
  const controller = new AbortController();
  const onSignal = (): void => controller.abort();
  process.once('SIGINT', onSignal);
  process.once('SIGTERM', onSignal);
  try {
    const summary = await runQueue({
      task: taskAbs,
      worktree,
      root,
      store,
      requestBase: rawRequestBase(),
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
    await store?.end();
  }
}
