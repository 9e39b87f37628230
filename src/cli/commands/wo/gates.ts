// `loop-ledger wo ship-gate|merge-gate|mode-gate <task-folder> …` — the exit gates. Exit 0 iff
// allowed, 1 refused, 2 usage. Hooks: $WO_SHIP_GATE_CMD and $WO_RUN_STATE_CMD (merge gate),
// $WO_PROJECT_STATE_CMD, $WO_FM_READ_CMD and $WO_CONFIRM_ARTIFACT (mode gate).
import { realpathSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { readFrontmatter } from '../../../engine/workorders/frontmatter-yaml';
import { modeGate, mergeGate, shipGate, type MergeWoFacts } from '../../../engine/workorders/gates';
import { shortIdFromFileName, sidecars } from '../../../engine/workorders/ids';
import { isObject } from '../../../engine/workorders/jq';
import { runModeLine } from '../../../engine/workorders/project-state';
import { read as readRunState } from '../../../engine/workorders/run-state';
import { isDirectory, isFile, listNames, readText, woFileNames } from '../../../drivers/workorders/files';
import { hookFrom, runHook } from '../../../drivers/workorders/hooks';
import { err, out, parseFlags } from './io';

export function shipFacts(task: string): Parameters<typeof shipGate>[0] {
  const dir = join(task, 'work-orders');
  const names = listNames(dir);
  return {
    taskReview: readText(join(task, '_review.json')),
    haltFiles: names.filter((n) => n.endsWith('.HALT')),
    critiques: names
      .filter((n) => n.endsWith('._critique.json'))
      .map((name) => ({ name, text: readText(join(dir, name)) ?? '' })),
    woFiles: woFileNames(dir),
  };
}

export function shipMain(argv: string[]): number {
  const task = argv[0] ?? '';
  if (!task || !isDirectory(task)) {
    out({ ship_ok: false, reason: 'task_folder_missing' });
    return 2;
  }
  const result = shipGate(shipFacts(task));
  out(result.payload);
  err(result.stderr);
  return result.exitCode;
}

/** The merge gate's verdict (used by the CLI and by `wo run`'s exit). */
export function evaluateMergeGate(task: string): ReturnType<typeof mergeGate> {
  const dir = join(task, 'work-orders');
  const shipHook = hookFrom('WO_SHIP_GATE_CMD');
  let ship: { exitCode: number; stdout: string };
  if (shipHook) ship = runHook(shipHook, [task]);
  else {
    const result = shipGate(shipFacts(task));
    ship = { exitCode: result.exitCode, stdout: JSON.stringify(result.payload) };
  }
  const runHookCmd = hookFrom('WO_RUN_STATE_CMD');
  const wos: MergeWoFacts[] = woFileNames(dir).map((fileName) => {
    const id = shortIdFromFileName(fileName);
    const names = sidecars(id);
    const text = readText(join(dir, fileName));
    const fm = text === undefined ? undefined : readFrontmatter(text);
    const runPath = join(dir, names.run);
    let runRead: { exitCode: number; stdout: string };
    if (runHookCmd) runRead = runHook(runHookCmd, ['read', runPath]);
    else {
      const r = readRunState(id, readText(runPath));
      runRead = { exitCode: r.exitCode, stdout: JSON.stringify(r.stdout) };
    }
    return {
      fileName,
      frontmatter: fm?.ok ? fm.data : undefined,
      review: readText(join(dir, names.review)),
      runRead,
    };
  });
  return mergeGate(ship, wos);
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

function findProjectRoot(task: string): string | undefined {
  let dir: string;
  try {
    dir = realpathSync(task);
  } catch {
    return undefined;
  }
  while (dir !== dirname(dir)) {
    if (isFile(join(dir, 'project_state.md'))) return dir;
    dir = dirname(dir);
  }
  return undefined;
}

/**
 * A hook's JSON stdout key, or the default reader: for the project file (`projectFile`) the
 * original's `**Run Mode:**` line, else a frontmatter key, else interactive (as the original's
 * reader defaults); for the task file its frontmatter `run_mode` only.
 */
function modeFrom(
  hook: string | undefined,
  hookArg: string,
  file: string,
  keys: string[],
  projectFile: boolean,
): string | undefined {
  if (hook) {
    const r = runHook(hook, [hookArg]);
    try {
      const value: unknown = JSON.parse(r.stdout);
      const found = isObject(value) ? value[keys[0] ?? ''] : undefined;
      return typeof found === 'string' ? found : undefined;
    } catch {
      return undefined;
    }
  }
  const text = readText(file);
  if (text === undefined) return undefined;
  const fromLine = projectFile ? runModeLine(text) : undefined;
  if (fromLine !== undefined) return fromLine;
  const fm = readFrontmatter(text);
  if (fm.ok) for (const key of keys) if (typeof fm.data[key] === 'string') return fm.data[key] as string;
  return projectFile ? 'interactive' : undefined;
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
  const flags = parseFlags(argv.slice(1), ['--action', '--project-root', '--mode', '--operator-uid']);
  const action = flags.values.get('--action') ?? 'pr-open';
  const confirmPath = process.env.WO_CONFIRM_ARTIFACT || join(task, '.pr-confirm');
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
  const projectRoot = flags.values.get('--project-root') || findProjectRoot(task);
  const projectFound = projectRoot !== undefined && isDirectory(projectRoot);
  const operatorUid = flags.values.get('--operator-uid');
  let ownerMatches: boolean | undefined;
  if (operatorUid && isFile(confirmPath)) {
    try {
      ownerMatches = String(statSync(confirmPath).uid) === operatorUid;
    } catch {
      ownerMatches = false;
    }
  }
  const result = modeGate({
    action,
    modeOverride: flags.values.get('--mode'),
    projectFound,
    projectMode: projectFound
      ? modeFrom(
          hookFrom('WO_PROJECT_STATE_CMD'),
          projectRoot,
          join(projectRoot, 'project_state.md'),
          ['runMode', 'run_mode'],
          true,
        )
      : undefined,
    taskMode: projectFound
      ? modeFrom(hookFrom('WO_FM_READ_CMD'), task, join(task, 'task.md'), ['run_mode'], false)
      : undefined,
    confirmPath,
    confirmExists: isFile(confirmPath),
    confirmOwnerMatches: ownerMatches,
  });
  out(result.payload);
  err(result.stderr);
  return result.exitCode;
}
