// A run's attempts as its ledger records them: each record's actions name its run and attempt
// (`<run id>/<NN>/<step>`) and its evidence paths the run folder, which the host reads for the
// phases' durations (kind-facts.ts). Only well-formed names are taken: a hostile ledger names no
// folder outside the workspace.
import type { IterationRecord } from '../types';
import type { KindRow, RunAttemptRef } from './kind-row';
import { isText, textOf } from './text';

/**
 * The run folder a record's evidence names (repo-relative, `<run root>/<run id>`), so a run made
 * with its own run root is found too; undefined when no evidence path is a plain relative path
 * into that run's folder.
 */
function runDirOf(record: IterationRecord, runId: string): string | undefined {
  for (const path of Array.isArray(record.evidence_paths) ? record.evidence_paths : []) {
    if (!isText(path) || path.length > 1000) continue;
    const at = path.indexOf(`/${runId}/`);
    if (at <= 0) continue;
    const dir = path.slice(0, at + runId.length + 1);
    const parts = dir.split('/');
    if (dir.startsWith('/') || dir.includes('\\') || parts.some((p) => p === '' || p === '.' || p === '..'))
      continue;
    return dir;
  }
  return undefined;
}

/** The run and attempt a run's record names in its actions (`<run id>/<NN>/<step>`), or null. */
function runAttemptOf(record: IterationRecord): { runId: string; attempt: number; runDir?: string } | null {
  for (const action of Array.isArray(record.actions) ? record.actions : []) {
    const m = isText(action) ? /^([A-Za-z0-9][A-Za-z0-9._-]{0,199})\/(\d{1,4})\/[a-z-]+$/.exec(action) : null;
    if (m) {
      const runDir = runDirOf(record, m[1]!);
      return { runId: m[1]!, attempt: Number(m[2]), ...(runDir ? { runDir } : {}) };
    }
  }
  return null;
}

/** A run's attempts as the ledger has them (the caller passes the newest it lists); the phases column is filled from the run folder. */
export function runRows(records: readonly IterationRecord[]): {
  rows: KindRow[];
  attempts: RunAttemptRef[];
} {
  const rows: KindRow[] = [];
  const attempts: { runId: string; attempt: number; runDir?: string }[] = [];
  for (const r of records) {
    const at = runAttemptOf(r) ?? { runId: '', attempt: 0 };
    attempts.push(at);
    rows.push({
      n: r.n,
      cells: [at.attempt > 0 ? String(at.attempt) : '—', '—', textOf(r.critic_verdict), textOf(r.outcome)],
    });
  }
  return { rows, attempts };
}
