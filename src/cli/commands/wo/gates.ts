// `loop-ledger wo ship-gate|merge-gate|mode-gate <task-folder> …` — the exit gates. Exit 0 iff
// allowed, 1 refused, 2 usage. The facts (files and hook commands) are gathered by the app's gate
// operations (app/workorders/gate-facts.ts).
import { evaluateMergeGate, evaluateModeGate, evaluateShipGate } from '../../../app/workorders/gate-facts';
import { isDirectory } from '../../../app/workorders/folders';
import { err, out, parseKernelFlags } from './io';

export function shipMain(argv: string[]): number {
  const task = argv[0] ?? '';
  if (!task || !isDirectory(task)) {
    out({ ship_ok: false, reason: 'task_folder_missing' });
    return 2;
  }
  const result = evaluateShipGate(task);
  out(result.payload);
  err(result.stderr);
  return result.exitCode;
}

export function mergeMain(argv: string[]): number {
  const task = argv[0] ?? '';
  if (!task || !isDirectory(task)) {
    out({
      merge_ok: false,
      auto_merge_allowed: false,
      ship_ok: false,
      review_verdict: 'missing',
      per_wo_review_failures: [],
      overrides_used: [],
      missing_run_state: [],
      halts: [],
      blocking: [],
      reason: 'task_folder_missing',
    });
    return 2;
  }
  const result = evaluateMergeGate(task);
  out(result.payload);
  err(result.stderr);
  return result.exitCode;
}

const MODE_FLAGS = new Set(['--action', '--project-root', '--mode', '--operator-uid']);

/**
 * What is wrong with the mode gate's arguments after the task, as the original walks them: each
 * is one of its four flags followed by a value. A flag with nothing after it (`--mode` last) is
 * a usage error, never an empty value that falls through to an allow; so is anything else.
 */
function modeArgsProblem(args: string[]): string | undefined {
  for (let i = 0; i < args.length; i += 1) {
    const arg = args[i] ?? '';
    if (!MODE_FLAGS.has(arg)) return `unknown arg: ${arg.slice(0, 80)}`;
    if (i + 1 >= args.length) return `${arg} needs a value`;
    i += 1;
  }
  return undefined;
}

export function modeMain(argv: string[]): number {
  const task = argv[0] ?? '';
  const flags = parseKernelFlags(argv.slice(1), ['--action', '--project-root', '--mode', '--operator-uid']);
  const action = flags.values.get('--action') ?? 'pr-open';
  const problem = modeArgsProblem(argv.slice(1));
  if (!task || !isDirectory(task) || problem !== undefined) {
    if (task && isDirectory(task) && problem !== undefined) err(`wo-mode-gate: ${problem}`);
    const reason = !task || !isDirectory(task) ? 'task_folder_missing' : 'bad_args';
    out({
      action,
      mode: 'unknown',
      allowed: false,
      reason,
      halt_reason: null,
      // The original resolves the confirm path only after its arguments parse.
      confirm_artifact: '',
    });
    err(`mode_gate allowed=false mode=unknown reason=${reason}`);
    return 2;
  }
  const result = evaluateModeGate({
    task,
    action,
    modeOverride: flags.values.get('--mode'),
    projectRoot: flags.values.get('--project-root'),
    operatorUid: flags.values.get('--operator-uid'),
  });
  out(result.payload);
  err(result.stderr);
  return result.exitCode;
}
