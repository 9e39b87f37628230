// `oracle-check`: tamper detection over a work order's diff (`git diff --name-status`) against a
// caller-provided oracle-file rule list — no framework knowledge here. A change to a watched
// oracle (a test baseline, a lint baseline…) is a `halt` signal unless the work order's own
// `oracle_update.classes` allows that class, which downgrades it to a recorded `flag`.
import { isObject } from './jq';

export interface OracleRule {
  type: string;
  globs: string[];
  changes: string[];
  oracle_class: string;
  severity: string;
}

export interface OracleSignal {
  type: string;
  path: string;
  change: string;
  oracle_class: string;
  severity: string;
  allowed_by_scope: boolean;
}

/** Path glob: `*` and `?` stay within a segment, `**` spans segments (`**\/` also matches none). */
export function oracleGlob(glob: string): RegExp {
  let out = '';
  for (let i = 0; i < glob.length; i += 1) {
    const c = glob[i] ?? '';
    if (c === '*' && glob[i + 1] === '*') {
      if (glob[i + 2] === '/') {
        out += '(?:.*/)?';
        i += 2;
      } else {
        out += '.*';
        i += 1;
      }
    } else if (c === '*') out += '[^/]*';
    else if (c === '?') out += '[^/]';
    else out += c.replace(/[.+^${}()|[\]\\]/g, '\\$&');
  }
  return new RegExp(`^${out}$`);
}

/** Well-formed rules only (a rule missing a field monitors nothing). */
export function oracleRules(value: unknown[]): OracleRule[] {
  return value.filter(
    (r): r is OracleRule =>
      isObject(r) &&
      typeof r.type === 'string' &&
      typeof r.oracle_class === 'string' &&
      typeof r.severity === 'string' &&
      Array.isArray(r.globs) &&
      Array.isArray(r.changes),
  );
}

/** `STATUS\tpath` lines → (change, path) pairs: a rename is a delete plus an add, a copy an add. */
export function nameStatusChanges(text: string): { change: string; path: string }[] {
  const out: { change: string; path: string }[] = [];
  for (const raw of text.split('\n')) {
    const [status = '', a = '', b = ''] = raw
      .replace(/\r$/, '')
      .split('\t')
      .map((f) => f.replace(/\r$/, ''));
    if (status === '') continue;
    if (status.startsWith('R')) {
      out.push({ change: 'D', path: a }, { change: 'A', path: b });
    } else if (status.startsWith('C')) out.push({ change: 'A', path: b });
    else if (status === 'A' || status === 'M' || status === 'D') out.push({ change: status, path: a });
  }
  return out.filter((c) => c.path !== '');
}

export interface OracleVerdict {
  schema_version: '1.0';
  oracle_configured: boolean;
  tamper_detected: boolean;
  signals: OracleSignal[];
  halt_reason: 'oracle_tamper' | null;
}

export function oracleCheck(
  rules: OracleRule[],
  changes: { change: string; path: string }[],
  allowedClasses: string[],
): OracleVerdict {
  const compiled = rules.map((rule) => ({
    rule,
    globs: rule.globs.filter((g): g is string => typeof g === 'string').map(oracleGlob),
  }));
  const signals: OracleSignal[] = [];
  let halts = 0;
  for (const { change, path } of changes) {
    const hit = compiled.find(
      ({ rule, globs }) => rule.changes.includes(change) && globs.some((g) => g.test(path)),
    );
    if (!hit) continue;
    const allowed = allowedClasses.includes(hit.rule.oracle_class);
    signals.push({
      type: hit.rule.type,
      path,
      change,
      oracle_class: hit.rule.oracle_class,
      severity: hit.rule.severity === 'halt' && allowed ? 'flag' : hit.rule.severity,
      allowed_by_scope: allowed,
    });
    if (hit.rule.severity === 'halt' && !allowed) halts += 1;
  }
  return {
    schema_version: '1.0',
    oracle_configured: rules.length > 0 && compiled.some((c) => c.globs.length > 0),
    tamper_detected: halts > 0,
    signals,
    halt_reason: halts > 0 ? 'oracle_tamper' : null,
  };
}

/** `oracle_update.classes` from parsed frontmatter (strings only). */
export function oracleClasses(frontmatter: Record<string, unknown> | undefined): string[] {
  const update = frontmatter?.oracle_update;
  if (!isObject(update) || !Array.isArray(update.classes)) return [];
  return update.classes.filter((c): c is string => typeof c === 'string').map((c) => c.trim());
}
