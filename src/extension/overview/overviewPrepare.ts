// What an overview shows of one session, computed from its ledger without vscode: the model (every
// series downsampled), the numbers of its records (the gate admits only those), or the reason the
// ledger cannot be shown, in the Sessions tree's own words (the same reader judges it). The worker
// thread (overviewWorker.ts) runs this for large ledgers; the host runs it for small ones.
import { buildOverview, recordInWords, type OverviewModel } from '../../engine/overview/model';
import type { IterationRecord } from '../../engine/types';
import type { RecordLine } from '../../shared/overview-protocol';
import type { SessionEntry } from '../sessions/sessionEntry';

export type PreparedOverview =
  | {
      kind: 'model';
      model: OverviewModel;
      /** Every record's number, in file order. */
      numbers: Float64Array;
    }
  | { kind: 'problem'; session: string; reason: string }
  | { kind: 'absent' };

export function prepareOverview(entry: SessionEntry | undefined, buckets: number): PreparedOverview {
  if (!entry) return { kind: 'absent' };
  if (entry.kind === 'broken') return { kind: 'problem', session: entry.session, reason: entry.problem };
  try {
    const model = buildOverview(entry.ledger, entry.status, buckets);
    const records = entry.ledger.iterations;
    const numbers = new Float64Array(records.length);
    for (let i = 0; i < records.length; i += 1) numbers[i] = records[i]!.n;
    return { kind: 'model', model, numbers };
  } catch (error) {
    const reason = `unreadable ledger: ${error instanceof Error ? error.message : String(error)}`;
    return { kind: 'problem', session: entry.session, reason };
  }
}

/** Record `n` of a readable entry: records are numbered from 1 in file order, so look there first. */
export function recordOf(entry: SessionEntry | undefined, n: number): IterationRecord | undefined {
  if (entry?.kind !== 'ledger') return undefined;
  const records = entry.ledger.iterations;
  const direct = records[n - 1];
  if (direct && direct.n === n) return direct;
  return records.find((r) => r.n === n);
}

/** Record `n` in words with its critic brief, or undefined when the ledger has no such record. */
export function iterationOf(
  entry: SessionEntry | undefined,
  n: number,
): { lines: RecordLine[]; brief: string | null } | undefined {
  const record = recordOf(entry, n);
  return record ? iterationWords(record) : undefined;
}

/** A record in words with its critic brief. */
export function iterationWords(record: IterationRecord): { lines: RecordLine[]; brief: string | null } {
  const brief =
    typeof record.critic_brief === 'string' && record.critic_brief !== '' ? record.critic_brief : null;
  return { lines: recordInWords(record), brief };
}
