// The exit gates, pure over what the driver read: the ship gate (may this task ship?),
// the merge gate (ship + per-WO review + sidecars + overrides) and the mode gate (may a PR be
// opened in this run mode?). Every unknown fails closed.
import { compareBytes, shortIdFromFileName } from './ids';
import { alt, isObject, path, raw } from './jq';

// ── ship gate ───────────────────────────────────────────────────────────────

export interface ShipFacts {
  /** `<task>/_review.json` text, undefined when absent. */
  taskReview?: string;
  /** Names of `work-orders/*.HALT`. */
  haltFiles: string[];
  /** `work-orders/*._critique.json` by file name. */
  critiques: { name: string; text: string }[];
  /** Names of `work-orders/wo-*.md`. */
  woFiles: string[];
}

export interface ShipPayload {
  ship_ok: boolean;
  review_verdict: string;
  halt_markers: string[];
  blocking_critiques: { file: string; reason: string }[];
  uncritiqued_work_orders: string[];
  reason: string;
}

function parseOrUndefined(text: string): { value: unknown } | undefined {
  try {
    return { value: JSON.parse(text) };
  } catch {
    return undefined;
  }
}

/** Clean = a non-empty object with `blocking === false` and `overall` pass/concern. */
export function critiqueClean(text: string | undefined): boolean {
  if (text === undefined || text.length === 0) return false;
  const parsed = parseOrUndefined(text);
  if (!parsed || !isObject(parsed.value)) return false;
  const overall = alt(parsed.value.overall, 'critical');
  return parsed.value.blocking === false && (overall === 'pass' || overall === 'concern');
}

function blockerReason(text: string): string {
  if (text.trim() === '') return 'empty_or_unreadable';
  const parsed = parseOrUndefined(text);
  if (!parsed) return 'unreadable';
  const value = parsed.value;
  if (value === null) return 'unreadable';
  if (!isObject(value)) return 'unreadable';
  return raw(alt(alt(value.halt_reason, value.overall), 'unreadable'));
}

export function reviewVerdictOf(text: string | undefined): string {
  if (text === undefined) return 'missing';
  const parsed = parseOrUndefined(text);
  if (!parsed || !isObject(parsed.value)) return 'missing';
  return raw(alt(path(parsed.value, 'gate_specific', 'overall_verdict'), 'missing'));
}

export function shipGate(facts: ShipFacts): { exitCode: number; payload: ShipPayload; stderr: string } {
  const review = reviewVerdictOf(facts.taskReview);
  const halts = [...facts.haltFiles].sort(compareBytes);
  const critiques = [...facts.critiques].sort((a, b) => compareBytes(a.name, b.name));
  const byName = new Map(critiques.map((c) => [c.name, c.text]));
  const blockers = critiques
    .filter((c) => !critiqueClean(c.text))
    .map((c) => ({ file: c.name, reason: blockerReason(c.text) }));
  const uncritiqued = new Set<string>();
  for (const file of facts.woFiles) {
    const id = shortIdFromFileName(file);
    if (!critiqueClean(byName.get(`${id}._critique.json`))) uncritiqued.add(id);
  }
  const uncrit = [...uncritiqued].sort(compareBytes);
  const shipOk = review === 'pass' && halts.length === 0 && blockers.length === 0 && uncrit.length === 0;
  let reason = 'shippable';
  if (!shipOk) {
    if (review !== 'pass') reason = `review_${review}`;
    else if (halts.length > 0) reason = 'halt_markers';
    else if (blockers.length > 0) reason = 'blocking_critiques';
    else reason = 'uncritiqued_work_orders';
  }
  return {
    exitCode: shipOk ? 0 : 1,
    payload: {
      ship_ok: shipOk,
      review_verdict: review,
      halt_markers: halts,
      blocking_critiques: blockers,
      uncritiqued_work_orders: uncrit,
      reason,
    },
    stderr: `ship_gate ship_ok=${shipOk} review=${review} halts=${halts.length} blocking=${blockers.length} uncritiqued=${uncrit.length}`,
  };
}

// ── merge gate ──────────────────────────────────────────────────────────────

export interface MergeWoFacts {
  fileName: string;
  /** Parsed frontmatter, or undefined when unreadable (fails closed). */
  frontmatter?: Record<string, unknown>;
  /** `wo-NN._review.json` text. */
  review?: string;
  /** The run-state `read` result (exit code and stdout). */
  runRead: { exitCode: number; stdout: string };
}

export interface MergePayload {
  merge_ok: boolean;
  auto_merge_allowed: boolean;
  ship_ok: boolean;
  review_verdict: string;
  per_wo_review_failures: string[];
  overrides_used: string[];
  missing_run_state: string[];
  halts: unknown;
  blocking: unknown;
  reason: string;
}

function addUnique(list: string[], id: string): void {
  if (!list.includes(id)) list.push(id);
  list.sort(compareBytes);
}

/** `ship` is the ship gate's stdout and exit code (exit code beats JSON). */
export function mergeGate(
  ship: { exitCode: number; stdout: string },
  wos: MergeWoFacts[],
): { exitCode: number; payload: MergePayload; stderr: string } {
  let shipOk = false;
  let review = 'missing';
  let halts: unknown = [];
  let blocking: unknown = [];
  let shipReason = 'ship_gate_no_output';
  if (ship.stdout.trim() !== '') {
    const parsed = parseOrUndefined(ship.stdout);
    const out = parsed && isObject(parsed.value) ? parsed.value : {};
    shipOk = alt(out.ship_ok, 'false') === true;
    review = raw(alt(out.review_verdict, 'missing'));
    halts = alt(out.halt_markers, []);
    blocking = alt(out.blocking_critiques, []);
    shipReason = parsed ? raw(alt(out.reason, 'unknown')) : 'unknown';
  }
  if (ship.exitCode !== 0) shipOk = false;

  const failures: string[] = [];
  const overrides: string[] = [];
  const missingRun: string[] = [];
  for (const wo of [...wos].sort((a, b) => compareBytes(a.fileName, b.fileName))) {
    const id = shortIdFromFileName(wo.fileName);
    const fm = wo.frontmatter ?? {};
    const status = raw(alt(fm.status, ''));
    if (status === 'ready' || status === 'blocked') continue;
    if (status !== 'in_progress' && status !== 'done' && status !== 'needs_rework') {
      addUnique(missingRun, id);
      continue;
    }
    if (reviewVerdictOf(wo.review) !== 'pass') failures.push(id);
    if (wo.runRead.exitCode !== 0) addUnique(missingRun, id);
    else {
      const parsed = parseOrUndefined(wo.runRead.stdout);
      const run = parsed && isObject(parsed.value) ? parsed.value : {};
      if (raw(alt(run.override_used, 'false')) === 'true') addUnique(overrides, id);
    }
    if ((fm.coverage_override ?? null) !== null) addUnique(overrides, id);
  }
  const mergeOk = shipOk && failures.length === 0 && missingRun.length === 0;
  const autoMerge = mergeOk && overrides.length === 0;
  let reason = 'merge_ok';
  if (!mergeOk) {
    if (!shipOk) reason = `ship_not_ok:${shipReason}`;
    else if (failures.length > 0) reason = `per_wo_review_failed:${failures[0]}`;
    else reason = `missing_run_state:${missingRun[0]}`;
  }
  return {
    exitCode: mergeOk ? 0 : 1,
    payload: {
      merge_ok: mergeOk,
      auto_merge_allowed: autoMerge,
      ship_ok: shipOk,
      review_verdict: review,
      per_wo_review_failures: failures,
      overrides_used: overrides,
      missing_run_state: missingRun,
      halts,
      blocking,
      reason,
    },
    stderr: `merge_gate merge_ok=${mergeOk} auto_merge=${autoMerge} ship_ok=${shipOk} review=${review} per_wo_fail=${failures.length} overrides=${overrides.length}`,
  };
}

// ── mode gate ───────────────────────────────────────────────────────────────

export interface ModeFacts {
  action: string;
  /** `--mode` override, used verbatim (non-enum ⇒ unreadable). */
  modeOverride?: string;
  /** false when no project root could be found. */
  projectFound: boolean;
  /** The project's `runMode` as read (any string; non-enum ⇒ unreadable). */
  projectMode?: string;
  /** The task's `run_mode` (non-enum ⇒ inherit). */
  taskMode?: string;
  confirmPath: string;
  confirmExists: boolean;
  /** When `--operator-uid` is given: whether the confirm file's owner matches. */
  confirmOwnerMatches?: boolean;
}

export interface ModePayload {
  action: string;
  mode: string;
  allowed: boolean;
  reason: string;
  halt_reason: string | null;
  confirm_artifact: string;
}

const ENUM = (value: string | undefined): value is 'interactive' | 'autonomous' =>
  value === 'interactive' || value === 'autonomous';

export function effectiveMode(facts: ModeFacts): 'interactive' | 'autonomous' | 'unreadable' {
  if (facts.modeOverride !== undefined && facts.modeOverride !== '') {
    return ENUM(facts.modeOverride) ? facts.modeOverride : 'unreadable';
  }
  if (!facts.projectFound) return 'unreadable';
  const project = ENUM(facts.projectMode) ? facts.projectMode : 'unreadable';
  const task = ENUM(facts.taskMode) ? facts.taskMode : '';
  if (project === 'autonomous' || task === 'autonomous') return 'autonomous';
  if (project === 'interactive') return 'interactive';
  return 'unreadable';
}

export function modeGate(facts: ModeFacts): { exitCode: number; payload: ModePayload; stderr: string } {
  const mode = effectiveMode(facts);
  const verdict = (allowed: boolean, reason: string, halt: string | null) => ({
    exitCode: allowed ? 0 : 1,
    payload: {
      action: facts.action,
      mode,
      allowed,
      reason,
      halt_reason: halt,
      confirm_artifact: facts.confirmPath,
    },
    stderr: `mode_gate allowed=${allowed} mode=${mode} reason=${reason}`,
  });
  if (mode === 'autonomous') return verdict(false, 'autonomous_irreversible', 'autonomous_irreversible');
  if (mode === 'interactive') {
    if (facts.confirmExists && facts.confirmOwnerMatches !== false) return verdict(true, 'confirmed', null);
    return verdict(false, 'interactive_unconfirmed', 'interactive_unconfirmed');
  }
  return verdict(false, 'run_mode_unreadable', 'run_mode_unreadable');
}
