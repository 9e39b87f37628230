// The exit gates' operations (`wo ship-gate|merge-gate|mode-gate`): gather what each gate reads
// from the task folder (or from its hook commands) and hand it to the engine's gate rule. Hooks:
// $WO_SHIP_GATE_CMD and $WO_RUN_STATE_CMD (merge gate), $WO_PROJECT_STATE_CMD, $WO_FM_READ_CMD
// and $WO_CONFIRM_ARTIFACT (mode gate).
import { realpathSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { readFrontmatter } from '../../engine/workorders/frontmatter-yaml';
import { modeGate, mergeGate, shipGate, type MergeWoFacts } from '../../engine/workorders/gates';
import { shortIdFromFileName, sidecars } from '../../engine/workorders/ids';
import { isObject } from '../../engine/workorders/jq';
import { runModeLine } from '../../engine/workorders/project-state';
import { read as readRunState } from '../../engine/workorders/run-state';
import { isDirectory, isFile, listNames, readText, woFileNames } from '../../drivers/workorders/files';
import { hookFrom, runHook } from '../../drivers/workorders/hooks';

function shipFacts(task: string): Parameters<typeof shipGate>[0] {
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

export function evaluateShipGate(task: string): ReturnType<typeof shipGate> {
  return shipGate(shipFacts(task));
}

/** The merge gate's verdict: the ship gate (or its hook), then every work order's review and sidecar. */
export function evaluateMergeGate(task: string): ReturnType<typeof mergeGate> {
  const dir = join(task, 'work-orders');
  const shipHook = hookFrom('WO_SHIP_GATE_CMD');
  let ship: { exitCode: number; stdout: string };
  if (shipHook) ship = runHook(shipHook, [task]);
  else {
    const result = evaluateShipGate(task);
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

export interface ModeGateRequest {
  task: string;
  action: string;
  /** `--mode`: overrides what the project and task files say. */
  modeOverride?: string;
  /** `--project-root`; unset or empty = the nearest folder above the task with `project_state.md`. */
  projectRoot?: string;
  /** `--operator-uid`: the confirm file must be owned by this user. */
  operatorUid?: string;
}

/** The mode gate's verdict: may a PR be opened for this task, and why not. */
export function evaluateModeGate(request: ModeGateRequest): ReturnType<typeof modeGate> {
  const { task, operatorUid } = request;
  const confirmPath = process.env.WO_CONFIRM_ARTIFACT || join(task, '.pr-confirm');
  const projectRoot = request.projectRoot || findProjectRoot(task);
  const projectFound = projectRoot !== undefined && isDirectory(projectRoot);
  let ownerMatches: boolean | undefined;
  if (operatorUid && isFile(confirmPath)) {
    try {
      ownerMatches = String(statSync(confirmPath).uid) === operatorUid;
    } catch {
      ownerMatches = false;
    }
  }
  return modeGate({
    action: request.action,
    modeOverride: request.modeOverride,
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
}
