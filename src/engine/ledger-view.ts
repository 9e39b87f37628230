// Read-side helpers over a ledger that may be in the original format (keys missing).
import { isPyBlank } from './python-text';
import { setOwn } from './text-keyed';
import { isoUtcSeconds } from './utc-iso';
import type { IterationRecord, Ledger } from './types';

export const DEFAULT_STALL_THRESHOLD = 3;

export function currentEpoch(ledger: Pick<Ledger, 'epoch'>): number {
  return typeof ledger.epoch === 'number' ? ledger.epoch : 1;
}

export function recordEpoch(record: Pick<IterationRecord, 'epoch'>): number {
  return typeof record.epoch === 'number' ? record.epoch : 1;
}

/** The current epoch's records: the stall predicates never look across a re-open. */
export function epochRecords(ledger: Pick<Ledger, 'epoch' | 'iterations'>): IterationRecord[] {
  const epoch = currentEpoch(ledger);
  return ledger.iterations.filter((r) => recordEpoch(r) === epoch);
}

export function stallThreshold(ledger: Pick<Ledger, 'stall_threshold'>): number {
  return typeof ledger.stall_threshold === 'number' ? ledger.stall_threshold : DEFAULT_STALL_THRESHOLD;
}

/** UTC `YYYY-MM-DDTHH:MM:SSZ`, the original engine's timestamp form. */
export function utcStamp(now: Date): string {
  return isoUtcSeconds(now.getTime());
}

/** Blank (absent, empty or whitespace-only) text. */
export function isBlank(text: string | null | undefined): boolean {
  return text === null || text === undefined || isPyBlank(text);
}

/** Returns a copy of `value` with object keys sorted at every level (small objects only). */
export function sortKeysDeep<T>(value: T): T {
  if (Array.isArray(value)) return value.map(sortKeysDeep) as T;
  if (value !== null && typeof value === 'object') {
    const out: Record<string, unknown> = {};
    // setOwn: a contract value may carry a `__proto__` key, which plain assignment would drop.
    for (const key of Object.keys(value).sort())
      setOwn(out, key, sortKeysDeep((value as Record<string, unknown>)[key]));
    return out as T;
  }
  return value;
}
