// The words a person reads for a run's current phase (no vscode: unit-tested directly).
import * as l10n from '@vscode/l10n';
import type { Progress } from '../../app/run/operation';

/** "attempt 2/3: check 1/2 · 4s / 300s", the words a person reads for the current phase. */
export function phaseLabel(progress: Progress | undefined, now = Date.now()): string {
  if (!progress) return l10n.t('starting');
  const { phase, maxAttempts } = progress;
  const elapsed = Math.max(0, Math.round((now - progress.startedAt) / 1000));
  const clock = progress.timeoutSeconds > 0 ? ` · ${elapsed}s / ${progress.timeoutSeconds}s` : '';
  switch (phase.kind) {
    case 'explorer':
      return `explorer${clock}`;
    case 'coder':
    case 'code-reviewer':
      return l10n.t('attempt {0}/{1}: {2}{3}', phase.attempt, maxAttempts, phase.kind, clock);
    case 'check':
      return l10n.t(
        'attempt {0}/{1}: check {2}/{3}{4}',
        phase.attempt,
        maxAttempts,
        phase.index,
        phase.count,
        clock,
      );
    case 'finishing':
      return l10n.t('writing the receipt');
  }
}
