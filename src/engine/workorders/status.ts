// The work-order status machine (`compile set-status`): the legal-transition table, the
// deps-done guard on blocked → ready, and the single-line surgical write.
import { statusLineCount, withStatus } from './frontmatter';
import { readFrontmatter } from './frontmatter-yaml';
import { baseName } from './ids';
import { alt, raw } from './jq';

export const STATUSES = ['ready', 'blocked', 'in_progress', 'done', 'needs_rework'] as const;
export type WoStatus = (typeof STATUSES)[number];

export function isStatus(value: string): value is WoStatus {
  return (STATUSES as readonly string[]).includes(value);
}

/** from:to → the reason a legal transition reports. Anything absent is illegal. */
const LEGAL: Record<string, string> = {
  'blocked:ready': 'deps_cleared',
  'ready:in_progress': 'dispatch',
  'in_progress:done': 'ok',
  'in_progress:needs_rework': 'ok',
  'needs_rework:ready': 'requeue',
};

export function transitionReason(from: string, to: string): string | undefined {
  return LEGAL[`${from}:${to}`];
}

/** The statuses a work order in `from` may move to (for menus: only legal transitions). */
export function legalTargets(from: string): WoStatus[] {
  return STATUSES.filter((to) => transitionReason(from, to) !== undefined);
}

export interface SetStatusPayload {
  ok: boolean;
  wo: string | null;
  previous_status: string | null;
  new_status: string | null;
  changed: boolean;
  reason: string;
}

export interface SetStatusResult {
  exitCode: number;
  payload: SetStatusPayload;
  /** The new file text when the write should happen. */
  write?: string;
}

/** A sibling lookup for the deps guard: the files named `<fragment>-*.md` beside the WO. */
export type SiblingLookup = (fragment: string) => { text: string }[];

const DEP_FRAGMENT = /^wo-[0-9]+$/;

export function setStatus(
  fileName: string,
  text: string | undefined,
  newStatus: string,
  siblings: SiblingLookup,
): SetStatusResult {
  const refuse = (payload: Omit<SetStatusPayload, 'ok' | 'changed'>): SetStatusResult => ({
    exitCode: 1,
    payload: {
      ok: false,
      wo: payload.wo,
      previous_status: payload.previous_status,
      new_status: payload.new_status,
      changed: false,
      reason: payload.reason,
    },
  });
  if (!isStatus(newStatus)) {
    return refuse({
      wo: null,
      previous_status: null,
      new_status: newStatus,
      reason: `invalid_status:${newStatus}`,
    });
  }
  const fm = text === undefined ? undefined : readFrontmatter(text, { duplicateKeys: 'lastWins' });
  if (text === undefined || fm === undefined || !fm.ok) {
    return refuse({
      wo: null,
      previous_status: null,
      new_status: newStatus,
      reason: 'frontmatter_unreadable',
    });
  }
  const idValue = raw(alt(fm.data.id, ''));
  const wo = idValue === '' ? baseName(fileName) : idValue;
  const current = raw(alt(fm.data.status, ''));
  const base = { wo, previous_status: current, new_status: newStatus };
  if (!isStatus(current)) return refuse({ ...base, reason: `invalid_status:${current}` });
  if (current === newStatus) {
    return { exitCode: 0, payload: { ok: true, ...base, changed: false, reason: 'noop_same_status' } };
  }
  const reason = transitionReason(current, newStatus);
  if (reason === undefined) return refuse({ ...base, reason: `illegal_transition:${current}->${newStatus}` });
  if (current === 'blocked') {
    const problem = depsProblem(fm.data.blocked_by, siblings);
    if (problem) return refuse({ ...base, reason: problem });
  }
  if (statusLineCount(text) !== 1) return refuse({ ...base, reason: 'ambiguous_status_field' });
  return {
    exitCode: 0,
    payload: { ok: true, ...base, changed: true, reason },
    write: withStatus(text, newStatus),
  };
}

/** The first unmet dependency as `deps_unresolvable:<id>` / `deps_not_done:<id>`, else undefined. */
export function depsProblem(blockedBy: unknown, siblings: SiblingLookup): string | undefined {
  const list = alt(blockedBy, []);
  if (!Array.isArray(list)) return undefined;
  for (const item of list) {
    const depId = raw(item);
    if (depId === '') continue;
    const fragment = depId.slice(depId.lastIndexOf('#') + 1);
    if (!DEP_FRAGMENT.test(fragment)) return `deps_unresolvable:${depId}`;
    const matches = siblings(fragment);
    if (matches.length !== 1) return `deps_unresolvable:${depId}`;
    const dep = readFrontmatter(matches[0]?.text ?? '');
    if (!dep.ok) return `deps_unresolvable:${depId}`;
    if (raw(alt(dep.data.status, '')) !== 'done') return `deps_not_done:${depId}`;
  }
  return undefined;
}
