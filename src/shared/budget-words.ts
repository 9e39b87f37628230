// How a loop-engineering budget reads, for `status`, the status bar and the session tooltip:
// `; budget iterations 2/4, time 3m/35m, calls 7/18`.
import type { StatusPayload } from '../engine/status';

/** 90500 → `1m30s`; 2100000 → `35m`. */
function duration(ms: number): string {
  const s = Math.round(ms / 1000);
  const h = Math.floor(s / 3600);
  const m = Math.floor((s % 3600) / 60);
  const rest = s % 60;
  const words = [h ? `${h}h` : '', m ? `${m}m` : '', rest ? `${rest}s` : ''].join('');
  return words === '' ? '0s' : words;
}

export function budgetWords(budget: StatusPayload['budget']): string {
  if (!budget) return '';
  const parts = Object.entries(budget)
    .filter(([, b]) => b.cap !== null)
    .map(([name, b]) =>
      name === 'time_ms'
        ? `time ${duration(b.spent)}/${duration(b.cap as number)}`
        : `${name.replace(/_/g, ' ')} ${b.spent}/${b.cap}`,
    );
  return parts.length > 0 ? `; budget ${parts.join(', ')}` : '';
}

/** The cap nearest to being reached, for the status bar (`calls 7/18`); '' when none is enforced. */
export function tightestBudget(budget: StatusPayload['budget']): string {
  if (!budget) return '';
  const ranked = Object.entries(budget)
    .filter((entry): entry is [string, { spent: number; cap: number }] => entry[1].cap !== null)
    .sort((a, b) => b[1].spent / b[1].cap - a[1].spent / a[1].cap);
  const top = ranked[0];
  if (!top) return '';
  return budgetWords({ [top[0]]: top[1] }).replace(/^; budget /, '');
}
