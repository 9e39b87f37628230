// How `status` words a loop-engineering budget: `; budget iterations 2/4, calls 7/18, …`.
import type { StatusPayload } from '../../engine/status';

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
