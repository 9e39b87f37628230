// The baseline a new measurement is compared against: the newest earlier record that carries
// measurements — across every epoch, as the original engine does — else the rubric's declared
// baselines. An unmeasured record never becomes a baseline: a blank pass must not erase the
// last real reading.
import { copyTextKeyed, textKeyed } from './text-keyed';
import type { Ledger } from './types';

export function deriveBaseline(ledger: Pick<Ledger, 'iterations' | 'contract'>): Record<string, number> {
  const records = ledger.iterations;
  for (let i = records.length - 1; i >= 0; i--) {
    const measured = records[i]?.measurements;
    if (measured && Object.keys(measured).length > 0) return copyTextKeyed(measured);
  }
  const declared = textKeyed<number>();
  for (const dim of ledger.contract.quality_rubric ?? []) declared[dim.dimension] = dim.baseline;
  return declared;
}
