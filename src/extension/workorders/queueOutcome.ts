// What a finished Run Queue tells a person: one notification (its severity and words) and the
// lines the output channel keeps — each exit gate's answer with its reason. Pure (no `vscode`),
// so unit tests read the same words the window shows.
import * as l10n from '@vscode/l10n';
import type { RunSummary } from '../../app/workorders/run-queue';

export interface QueueOutcomeInput {
  exitCode: number | null;
  summary?: RunSummary;
  /** The CLI's stderr, for its last line when there is no summary (a usage refusal, say). */
  stderr: string;
}

export interface QueueNotice {
  severity: 'info' | 'warning' | 'error';
  message: string;
  /** The gates' answers in words, one line each, for the output channel. */
  lines: string[];
}

type Gates = NonNullable<RunSummary['gates']>;

interface GateAnswer {
  name: string;
  /** Does this gate refuse the branch? (the mode gate only reports: it never refuses a run) */
  refuses: boolean;
  line: string;
}

const text = (value: unknown): string => (value === undefined || value === null ? '?' : String(value));

function answers(g: Gates): GateAnswer[] {
  const review = g.task_review.verdict;
  const ship = g.ship_gate;
  const merge = g.merge_gate;
  const mode = g.mode_gate;
  return [
    {
      name: l10n.t('task review'),
      refuses: review !== 'pass',
      line: l10n.t('task review: {0}{1}', review, g.task_review.reused ? l10n.t(' (reused, same HEAD)') : ''),
    },
    {
      name: l10n.t('ship gate'),
      refuses: ship.exit_code !== 0,
      line: l10n.t(
        'ship gate: {0} ({1})',
        ship.exit_code === 0 ? l10n.t('ship') : l10n.t('refused'),
        text(ship.reason),
      ),
    },
    {
      name: l10n.t('merge gate'),
      refuses: merge.exit_code !== 0,
      line: l10n.t(
        'merge gate: {0} ({1}); auto-merge {2}',
        merge.exit_code === 0 ? l10n.t('merge') : l10n.t('refused'),
        text(merge.reason),
        merge.auto_merge_allowed === true ? l10n.t('allowed') : l10n.t('not allowed'),
      ),
    },
    {
      name: l10n.t('mode gate'),
      refuses: false,
      line: l10n.t(
        'mode gate (open a PR): {0} ({1})',
        mode.allowed === true ? l10n.t('allowed') : l10n.t('not allowed'),
        text(mode.reason),
      ),
    },
  ];
}

function lastLine(stderr: string): string {
  const lines = stderr.split('\n').filter((l) => l.trim());
  return (lines[lines.length - 1] ?? '').replace(/^loop-ledger wo run: /, '').slice(0, 300);
}

/** The notification and output lines for one finished `wo run`. */
export function queueNotice(task: string, r: QueueOutcomeInput): QueueNotice {
  const s = r.summary;
  if (!s) {
    const why = lastLine(r.stderr) || l10n.t('exit {0}', text(r.exitCode));
    return {
      severity: 'error',
      message: l10n.t('Loop Ledger: {0}: Run Queue failed: {1}', task, why),
      lines: [],
    };
  }
  const gates = s.gates ? answers(s.gates) : [];
  const lines = gates.map((g) => g.line);
  const done = s.work_orders.filter((w) => w.status === 'done').length;
  const count = l10n.t('{0}/{1} done', done, s.work_orders.length);
  if (s.outcome === 'complete') {
    const pr = gates.find((g) => g.name === l10n.t('mode gate'))?.line ?? '';
    return {
      severity: 'info',
      message: l10n.t('Loop Ledger: {0}: complete, {1}; the gates allow the branch. {2}', task, count, pr),
      lines,
    };
  }
  if (s.outcome === 'gates_refused') {
    const refusing = gates.filter((g) => g.refuses).map((g) => g.line);
    return {
      severity: 'warning',
      message: l10n.t('Loop Ledger: {0}: gates refused ({1}): {2}', task, count, refusing.join('; ')),
      lines,
    };
  }
  const halted = s.work_orders
    .filter((w) => w.terminal)
    .map((w) => `${w.wo_id} ${text(w.halt_reason)}`)
    .join(', ');
  const detail = halted || (s.stop_reason ?? '');
  return {
    severity: s.outcome === 'cancelled' ? 'info' : 'warning',
    message: l10n.t('Loop Ledger: {0}: {1} ({2}){3}', task, s.outcome, count, detail ? `: ${detail}` : ''),
    lines,
  };
}
