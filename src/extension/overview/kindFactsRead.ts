// Reads what the overview shows beside the ledger, off the extension host's thread (promises
// only): a run's folder (its receipt, the times of the files each phase writes) and a work
// order's files (its run-state sidecar and verdicts). The folders come with a cloned repository,
// so nothing here follows a link: the receipt goes through the store's capped reader (no link,
// no FIFO, size-capped), and phase files are only lstat'ed. No `vscode` here.
import { lstat, readdir } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import {
  PHASE_FILES,
  type KindFacts,
  type RunFolderFacts,
  type WorkOrderFacts,
} from '../../engine/overview/kind-facts';
import type { OverviewModel } from '../../engine/overview/model';
import { sidecars } from '../../engine/workorders/ids';
import { readWorkOrderText } from '../../app/workorders/read-async';
import { jsonFileSteps } from '../../store/read-steps';
import { runReadAsync } from '../../store/read-async';
import { loadTask } from '../workorders/model';

/** Where `loop-ledger run` and the window's Run Loop put run folders unless told otherwise. */
const RUN_ROOT = join('.loop', 'runs');
/** At most this many runs of one session are read (the newest ones its rows name). */
const MAX_RUNS = 20;
/** At most this many attempt folders per run are looked at. */
const MAX_ATTEMPTS = 200;

/** The modification time of a regular file at `path` (a link is not followed), else undefined. */
async function fileTime(path: string): Promise<number | undefined> {
  try {
    const s = await lstat(path);
    return s.isFile() ? s.mtimeMs : undefined;
  } catch {
    return undefined;
  }
}

async function isRealDirectory(path: string): Promise<boolean> {
  try {
    return (await lstat(path)).isDirectory();
  } catch {
    return false;
  }
}

async function timesOf(dir: string, names: readonly string[]): Promise<Record<string, number>> {
  const times: Record<string, number> = {};
  await Promise.all(
    names.map(async (name) => {
      const t = await fileTime(join(dir, name));
      if (t !== undefined) times[name] = t;
    }),
  );
  return times;
}

/**
 * One run folder, as RunFolderFacts: `runDirRel` (repo-relative, checked by the model to be a
 * plain relative path) when the ledger's evidence names it, else the default run root's.
 */
export async function readRunFolder(
  root: string,
  runId: string,
  runDirRel?: string,
): Promise<RunFolderFacts> {
  const runDir = join(root, runDirRel ?? join(RUN_ROOT, runId));
  const runsDir = dirname(runDir);
  if (!(await isRealDirectory(runsDir)) || !(await isRealDirectory(runDir)))
    return { kind: 'missing', runId };
  const receiptPath = join(runDir, 'final-receipt.json');
  const [receipt, receiptPresent] = await Promise.all([
    runReadAsync(jsonFileSteps(receiptPath)).catch(() => undefined),
    lstat(receiptPath).then(
      () => true,
      () => false,
    ),
  ]);
  const runTimes = await timesOf(
    runDir,
    PHASE_FILES.filter((p) => p.explorer).flatMap((p) => [p.start, p.end]),
  );
  const attemptsDir = join(runDir, 'attempts');
  const names = (await isRealDirectory(attemptsDir))
    ? await readdir(attemptsDir).catch(() => [] as string[])
    : [];
  const attemptNames = PHASE_FILES.filter((p) => !p.explorer).flatMap((p) => [p.start, p.end]);
  const attemptTimes: Record<number, Record<string, number>> = {};
  const attempts = names.filter((n) => /^\d{1,4}$/.test(n)).slice(0, MAX_ATTEMPTS);
  await Promise.all(
    attempts.map(async (name) => {
      const dir = join(attemptsDir, name);
      if (await isRealDirectory(dir)) attemptTimes[Number(name)] = await timesOf(dir, attemptNames);
    }),
  );
  return { kind: 'read', runId, receipt, receiptPresent, runTimes, attemptTimes };
}

function parsed(text: string | undefined): unknown {
  if (text === undefined) return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text; // present but not JSON: the model says so
  }
}

/** The work order named `session` in one of `taskPaths`, with its sidecar and verdicts. */
async function readWorkOrder(
  taskPaths: readonly string[],
  session: string,
  cap: number | null,
): Promise<WorkOrderFacts> {
  for (const taskPath of taskPaths) {
    const task = await loadTask(taskPath);
    const wo = task.workOrders.find((w) => w.id === session);
    if (!wo) continue;
    const runState = parsed(await readWorkOrderText(join(task.dir, sidecars(wo.id).run)));
    return {
      cap,
      runState,
      found: true,
      // Reconcile reads an absent review as "missing" and an absent critique as not blocking.
      reviewVerdict: wo.row.has_review ? wo.row.review_verdict : undefined,
      critiqueBlocking: wo.row.has_critique ? wo.row.critique_blocking : undefined,
    };
  }
  return { cap, runState: undefined, found: false, reviewVerdict: undefined, critiqueBlocking: undefined };
}

/**
 * What `model`'s kind keeps beside the ledger. `workOrders` names the workspace's task folders and
 * the cap the window dispatches under; it is only asked for a work order's overview.
 */
export async function readKindFacts(
  root: string,
  model: OverviewModel,
  workOrders: () => Promise<{ taskPaths: string[]; cap: number | null }>,
): Promise<KindFacts> {
  if (model.kind === 'run') {
    const dirs = new Map<string, string | undefined>();
    for (const a of model.runAttempts) if (a.runId !== '' && !dirs.get(a.runId)) dirs.set(a.runId, a.runDir);
    const runs = [...dirs].slice(-MAX_RUNS);
    return { runs: await Promise.all(runs.map(([id, dir]) => readRunFolder(root, id, dir))) };
  }
  if (model.kind === 'work-order') {
    const { taskPaths, cap } = await workOrders();
    return { workOrder: await readWorkOrder(taskPaths, model.session, cap) };
  }
  return {};
}
