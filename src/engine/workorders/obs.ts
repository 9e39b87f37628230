// Observability: one NDJSON record per settled work order (`obs-append`), and the off-line
// report over the log (`obs-report`). Both are read-only on every work-order artifact.
import { compareBytes } from './ids';
import { alt, isObject, path, raw } from './jq';

export const DISPOSITIONS = ['done', 'needs_rework', 'terminal_halt', 'terminal_escalated'] as const;

export function normaliseDisposition(value: string | undefined): string {
  return value !== undefined && (DISPOSITIONS as readonly string[]).includes(value) ? value : 'unknown';
}

export interface ObsSources {
  run: Record<string, unknown>;
  review: Record<string, unknown>;
  critique: Record<string, unknown>;
  haltMarker: boolean;
}

export function obsRecord(
  wo: string,
  disposition: string,
  now: string,
  s: ObsSources,
): Record<string, unknown> {
  const has = (key: string): boolean => Object.prototype.hasOwnProperty.call(s.run, key);
  return {
    schema_version: '1.0',
    wo_id: wo,
    recorded_at: now,
    disposition,
    attempts: alt(s.run.attempts, 0),
    dispatched_at: alt(s.run.dispatched_at, null),
    checkpoint_before: alt(s.run.checkpoint_before, null),
    checkpoint_after: alt(s.run.checkpoint_after, null),
    override_used: has('override_used') ? s.run.override_used : null,
    build_returned: has('build_returned') ? s.run.build_returned : null,
    halted: alt(s.run.halted, false),
    halt_reason: alt(s.run.halt_reason, null),
    halt_marker_present: s.haltMarker,
    review_verdict: alt(path(s.review, 'gate_specific', 'overall_verdict'), 'missing'),
    critique_overall: alt(s.critique.overall, 'missing'),
    critique_blocking: alt(s.critique.blocking, false),
    critique_tier: alt(s.critique.risk_tier, 'missing'),
  };
}

export function obsLine(record: Record<string, unknown>): string {
  return `wo-obs wo=${raw(record.wo_id)} disposition=${raw(record.disposition)} attempts=${raw(record.attempts)} review=${raw(record.review_verdict)} critique=${raw(record.critique_overall)} blocking=${raw(record.critique_blocking)}`;
}

// ── report ──────────────────────────────────────────────────────────────────

export interface ObsReport {
  schema_version: '1.0';
  records: number;
  skipped_lines: number;
  work_orders: number;
  dispositions: Record<string, number>;
  halt_reasons: Record<string, number>;
  review_verdicts: Record<string, number>;
  critique_overall: Record<string, number>;
  per_wo: {
    wo_id: unknown;
    last_disposition: string;
    attempts: number;
    records: number;
    ever_halted: boolean;
    rework_count: number;
  }[];
  flagged: {
    wo_id: unknown;
    reason: string;
    attempts: number;
    rework_count: number;
    last_disposition: string;
    halt_reason: unknown;
  }[];
}

/** Splits the log into object records and a count of blank/malformed/non-object lines. */
export function parseObsLog(text: string | undefined): {
  records: Record<string, unknown>[];
  skipped: number;
} {
  const records: Record<string, unknown>[] = [];
  let skipped = 0;
  if (text === undefined) return { records, skipped };
  const lines = text.split('\n');
  if (lines.length > 0 && lines[lines.length - 1] === '') lines.pop();
  for (const line of lines) {
    if (line.trim() === '') {
      skipped += 1;
      continue;
    }
    try {
      const value: unknown = JSON.parse(line);
      if (isObject(value)) records.push(value);
      else skipped += 1;
    } catch {
      skipped += 1;
    }
  }
  return { records, skipped };
}

const numberOf = (value: unknown): number => {
  const v = alt(value, 0);
  return typeof v === 'number' ? v : 0;
};

function bump(histogram: Record<string, number>, key: string): void {
  histogram[key] = (histogram[key] ?? 0) + 1;
}

/** The latest record per work order drives everything but `halt_reasons`, which spans all. */
export function obsReport(records: Record<string, unknown>[], skipped: number, threshold: number): ObsReport {
  const groups = new Map<string, Record<string, unknown>[]>();
  for (const record of records) {
    const key = raw(alt(record.wo_id, ''));
    const group = groups.get(key);
    if (group) group.push(record);
    else groups.set(key, [record]);
  }
  const keys = [...groups.keys()].sort(compareBytes);
  const dispositions: Record<string, number> = {
    done: 0,
    needs_rework: 0,
    terminal_halt: 0,
    terminal_escalated: 0,
    unknown: 0,
  };
  const halts: Record<string, number> = {};
  const reviews: Record<string, number> = {};
  const critiques: Record<string, number> = {};
  for (const record of records)
    if (record.halt_reason !== null && record.halt_reason !== undefined) bump(halts, raw(record.halt_reason));
  const perWo: ObsReport['per_wo'] = [];
  const flagged: ObsReport['flagged'] = [];
  for (const key of keys) {
    const group = groups.get(key) ?? [];
    const last = group[group.length - 1] ?? {};
    const disposition = raw(alt(last.disposition, 'unknown'));
    bump(dispositions, (DISPOSITIONS as readonly string[]).includes(disposition) ? disposition : 'unknown');
    bump(reviews, raw(alt(last.review_verdict, 'missing')));
    bump(critiques, raw(alt(last.critique_overall, 'missing')));
    const attempts = Math.max(...group.map((r) => numberOf(r.attempts)));
    const rework = group.filter((r) => r.disposition === 'needs_rework').length;
    perWo.push({
      wo_id: alt(last.wo_id, null),
      last_disposition: disposition,
      attempts,
      records: group.length,
      ever_halted: group.some((r) => r.halt_marker_present === true || r.halted === true),
      rework_count: rework,
    });
    const reason =
      disposition === 'terminal_halt' || disposition === 'terminal_escalated'
        ? 'terminal'
        : rework >= threshold
          ? 'repeated_rework'
          : null;
    if (reason) {
      flagged.push({
        wo_id: alt(last.wo_id, null),
        reason,
        attempts,
        rework_count: rework,
        last_disposition: disposition,
        halt_reason: alt(last.halt_reason, null),
      });
    }
  }
  return {
    schema_version: '1.0',
    records: records.length,
    skipped_lines: skipped,
    work_orders: keys.length,
    dispositions,
    halt_reasons: halts,
    review_verdicts: reviews,
    critique_overall: critiques,
    per_wo: perWo,
    flagged,
  };
}

export function obsReportText(report: ObsReport): string {
  const d = report.dispositions;
  const lines = [
    `wo-obs-report: ${report.records} records, ${report.work_orders} work-orders (skipped ${report.skipped_lines})`,
    `dispositions: done=${d.done} needs_rework=${d.needs_rework} terminal_halt=${d.terminal_halt} terminal_escalated=${d.terminal_escalated} unknown=${d.unknown}`,
  ];
  if (report.flagged.length === 0) lines.push('Flagged WOs: none');
  else {
    lines.push(`Flagged WOs (${report.flagged.length}):`);
    for (const f of report.flagged) {
      lines.push(
        `  ${raw(f.wo_id)}  ${f.reason}  rework=${f.rework_count} attempts=${f.attempts} last=${f.last_disposition}` +
          (f.halt_reason ? ` halt_reason=${raw(f.halt_reason)}` : ''),
      );
    }
  }
  const reasons = Object.entries(report.halt_reasons);
  lines.push(
    reasons.length === 0
      ? 'halt reasons: none'
      : `top halt reasons: ${reasons.map(([k, v]) => `${k}=${v}`).join(' ')}`,
  );
  return lines.join('\n');
}

export function obsReportLine(report: ObsReport): string {
  const d = report.dispositions;
  return `wo-obs-report wos=${report.work_orders} done=${d.done} rework=${d.needs_rework} terminal=${(d.terminal_halt ?? 0) + (d.terminal_escalated ?? 0)} flagged=${report.flagged.length}`;
}
