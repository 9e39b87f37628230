// `critique-aggregate`: the per-WO critique verdict from the critics' files on disk. Fail-closed
// against malformed or label-drifted critic data: an unknown verdict or severity, a non-object
// finding, an unreadable file, a missing critic all count as `unresolved`, never as `pass`.
import { alt, isObject } from './jq';

const RANK: Record<string, number> = { pass: 0, concern: 1, unresolved: 2, critical: 3 };
const NAME = ['pass', 'concern', 'unresolved', 'critical'];
const nameOf = (rank: number): string => NAME[rank] ?? 'unresolved';

const norm = (value: unknown): string => {
  const v = alt(value, '');
  return (typeof v === 'string' ? v : JSON.stringify(v)).toLowerCase().trim();
};

const CRITICAL_WORDS = /crit|rce|sqli|severe|blocker|major|^high$/;
const CONCERN_WORDS = /concern|medium|minor|^low$|warn/;

function severityRank(value: unknown): number {
  const s = norm(value);
  if (s === 'pass') return 0;
  if (s === 'concern') return 1;
  if (s === 'critical') return 3;
  if (CRITICAL_WORDS.test(s)) return 3;
  if (CONCERN_WORDS.test(s)) return 1;
  if (s === 'ok') return 0;
  return 2;
}

/** A critic file's effective verdict: the worst of its verdict and its findings' severities. */
export function effectiveVerdict(critic: unknown): string {
  if (!isObject(critic)) return 'unresolved';
  const ranks = [RANK[norm(critic.verdict)] ?? 2];
  const findings = alt(critic.findings, []);
  if (Array.isArray(findings))
    for (const f of findings) ranks.push(isObject(f) ? severityRank(f.severity) : 2);
  else return 'unresolved';
  return nameOf(Math.max(...ranks));
}

const blank = (value: unknown): boolean => typeof value !== 'string' || value.trim() === '';

/** The schema ≥ 2.0 finding-shape check: where[] with files, remedy, id (+ reachable_by for security). */
export function shapeCheck(critic: unknown): { status: 'pass' | 'fail' | 'not_run'; reason: string | null } {
  if (!isObject(critic)) return { status: 'not_run', reason: 'critic file not an object (pre-contract)' };
  const sv = critic.schema_version;
  let major: number | null = null;
  if (typeof sv === 'number') major = sv;
  else if (typeof sv === 'string') {
    const head = (sv.split('.')[0] ?? '').trim();
    major = head !== '' && Number.isFinite(Number(head)) ? Number(head) : null;
  }
  if (sv === undefined || sv === null)
    return { status: 'not_run', reason: 'schema_version absent (pre-contract)' };
  if (major === null)
    return { status: 'not_run', reason: `schema_version ${String(sv)} unparseable (pre-contract)` };
  if (major < 2) return { status: 'not_run', reason: `schema_version ${String(sv)} < 2.0 (pre-contract)` };
  const findings = critic.findings;
  if (findings !== undefined && findings !== null && !Array.isArray(findings))
    return { status: 'fail', reason: 'findings is not an array' };
  const lens = norm(critic.lens);
  const list = Array.isArray(findings) ? findings : [];
  for (let i = 0; i < list.length; i += 1) {
    const f: unknown = list[i];
    const problem = findingProblem(f, lens);
    if (problem) return { status: 'fail', reason: `finding[${i}]: ${problem}` };
  }
  return { status: 'pass', reason: null };
}

function findingProblem(f: unknown, lens: string): string | undefined {
  if (!isObject(f)) return 'finding is not an object';
  const sev = norm(f.severity);
  const bound =
    sev === 'critical' || sev === 'concern' || CRITICAL_WORDS.test(sev) || CONCERN_WORDS.test(sev);
  const where = f.where;
  const whereBad =
    !Array.isArray(where) || where.length === 0 || where.some((w) => !isObject(w) || blank(w.file));
  if (bound && whereBad) return 'where[] missing/empty/not-an-array, or an element lacks file';
  if (bound && blank(f.remedy)) return 'remedy missing or empty';
  if (bound && lens === 'security' && blank(f.reachable_by))
    return 'lens=security and reachable_by missing or empty';
  if (blank(f.id)) return 'id missing or empty';
  return undefined;
}

export interface CritiqueArgs {
  wo: string;
  tier: string;
  mode: string;
  expected: string;
  evaluated: string;
  diffEmpty: boolean;
  required: boolean;
  runAt: string;
  notDispatched: string[];
}

/** Critic files `<wo>.critic-*.json`, in name order, as text. */
export interface CriticFile {
  name: string;
  text: string;
}

export function aggregateCritique(args: CritiqueArgs, files: CriticFile[]): Record<string, unknown> {
  const tier = ['low', 'medium', 'high'].includes(args.tier) ? args.tier : 'high';
  const evaluated = args.evaluated === 'true';
  const expected = /^[0-9]+$/.test(args.expected) ? Number(args.expected) : 0;
  const mode = ['team', 'fanout', 'team-fallback-to-fanout', 'none'].includes(args.mode)
    ? args.mode
    : 'fanout';
  let hasCritical = false;
  let hasUnresolved = false;
  let hasConcern = false;
  const critics: Record<string, unknown>[] = [];
  for (const file of files) {
    let parsed: unknown;
    let readable = file.text.length > 0;
    if (readable) {
      try {
        parsed = JSON.parse(file.text);
      } catch {
        readable = false;
      }
    }
    let effective: string;
    if (!readable) {
      effective = 'unresolved';
      critics.push({
        lens: '?',
        verdict: 'unresolved',
        effective,
        findings: [],
        note: `unreadable:${file.name}`,
        shape_check: 'not_run',
        shape_check_reason: 'file unreadable',
      });
    } else {
      effective = effectiveVerdict(parsed);
      const shape = shapeCheck(parsed);
      if (shape.status === 'fail') effective = nameOf(Math.max(RANK[effective] ?? 2, 2));
      const base = isObject(parsed)
        ? parsed
        : { raw: typeof parsed === 'string' ? parsed : JSON.stringify(parsed) };
      critics.push({
        ...base,
        effective,
        shape_check: shape.status,
        ...(shape.reason ? { shape_check_reason: shape.reason } : {}),
      });
    }
    if (effective === 'critical') hasCritical = true;
    else if (effective === 'unresolved') hasUnresolved = true;
    else if (effective === 'concern') hasConcern = true;
  }
  const notDispatched = args.notDispatched.map((value) => {
    const cleaned = value.startsWith('--') ? '' : value;
    const colon = cleaned.indexOf(':');
    const lens = (colon < 0 ? cleaned : cleaned.slice(0, colon)).replace(/\s/g, '');
    const reason = (colon < 0 ? cleaned : cleaned.slice(colon + 1)).trim();
    return { lens, reason, accepted: colon >= 0 && lens === 'correctness' && reason !== '' };
  });
  const present = files.length;
  const cleanReturns = critics.filter(
    (c) =>
      c.effective === 'pass' &&
      Array.isArray(alt(c.findings, [])) &&
      (alt(c.findings, []) as unknown[]).length === 0,
  ).length;
  const missing = Math.max(0, expected - present) + notDispatched.filter((n) => !n.accepted).length;
  if (missing > 0) hasUnresolved = true;
  if (notDispatched.length > 0 && present === 0) hasUnresolved = true;
  if (evaluated && present === 0 && (tier === 'high' || tier === 'medium')) hasUnresolved = true;
  let overall: string;
  if (args.diffEmpty) overall = 'critical';
  else if (!evaluated) overall = 'not_evaluated';
  else if (hasCritical) overall = 'critical';
  else if (hasUnresolved) overall = tier === 'high' ? 'critical' : 'concern';
  else if (hasConcern) overall = 'concern';
  else overall = 'pass';
  const degraded = mode === 'team-fallback-to-fanout';
  const blocking =
    overall === 'critical' ||
    (overall === 'not_evaluated' && args.required) ||
    (args.required && hasUnresolved) ||
    (degraded && tier === 'high');
  let haltReason: string | null = null;
  if (blocking) {
    if (args.diffEmpty) haltReason = 'diff_empty';
    else if (overall === 'critical') haltReason = 'critique_critical';
    else if (overall === 'not_evaluated') haltReason = 'not_evaluated_required';
    else if (degraded && tier === 'high') haltReason = 'degraded_high';
    else haltReason = 'required_unresolved';
  }
  return {
    schema_version: '1.0',
    wo_id: args.wo,
    risk_tier: tier,
    run_at: args.runAt,
    mode,
    evaluated,
    required: args.required,
    expected_critics: expected,
    clean_returns: cleanReturns,
    present,
    missing,
    critics,
    overall,
    blocking,
    degraded,
    diff_empty: args.diffEmpty,
    halt_reason: haltReason,
    not_dispatched: notDispatched,
  };
}

/** The compact line the critique rung forwards. */
export function critiqueLine(envelope: Record<string, unknown>, critiqueRef: string): string {
  return `${String(envelope.wo_id)} critique=${String(envelope.overall)} tier=${String(envelope.risk_tier)} mode=${String(envelope.mode)} blocking=${String(envelope.blocking)} critique_ref=${critiqueRef}`;
}
