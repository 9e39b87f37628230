// The convergence summary: header from the exit reason, iterations, net change,
// notable events, the iteration log from the records (never invented), and "Why partial".
import { EXIT_REASONS, type ConvergenceSummary, type RepeatRecord, type RepeatState } from './state';

function whyPartial(state: RepeatState, session: string): string {
  const resume = `loop-ledger repeat --session ${session}`;
  switch (state.exit_reason) {
    case 'max-cap':
      return `The cap allowed ${state.iteration} run(s) and the workspace had not settled. Raise max= (or the contract's iteration_limit), re-open, and repeat again, or finish by hand.`;
    case 'abandoned-at-stall':
      return `The loop stalled ${state.total_stalls} time(s) and was abandoned at the pause. Fix the recurring blocker, then start a new repeat.`;
    case 'cycle-abandoned':
      return 'The loop cycled between two substantive states and the user chose to abandon. Pick one by hand, then repeat again.';
    case 'forward-escape-failed':
      return `Forward escape was tried ${state.forward_escape_attempts} time(s) and the step cycled anyway. Resolve the oscillation by hand.`;
    case 'indeterminate':
      return `A decision was needed and nobody could be asked. Answer with ${resume} --answer WORD (${state.pending?.options.join(' / ') ?? ''}).`;
    default:
      return '';
  }
}

export function convergenceSummary(
  state: RepeatState,
  records: readonly RepeatRecord[],
  netChange: string,
  session: string,
): ConvergenceSummary {
  const reason = state.exit_reason;
  const clean = reason !== null && EXIT_REASONS[reason].clean;
  const log = records.map((r) => ({
    n: r.iteration,
    outcome: r.classification,
    resolution: state.resolutions[String(r.iteration)] ?? r.resolution ?? '—',
    change_metric: r.change_metric,
  }));
  return {
    header: clean ? 'Convergence summary' : 'Partial convergence',
    iterations: records.length,
    exit_reason: reason,
    exit_label: reason
      ? EXIT_REASONS[reason].label
      : state.status === 'paused'
        ? 'paused: waiting for an answer'
        : 'running',
    net_change: netChange,
    notable_events: state.events.length > 0 ? [...state.events] : ['none'],
    log,
    why_partial: clean || reason === null ? null : whyPartial(state, session),
    follow_up: state.follow_up,
  };
}

function cell(text: string): string {
  return text.replace(/\|/g, '\\|').replace(/\r?\n/g, ' ');
}

/** The summary as markdown (the human output, the pause file and the VS Code preview). */
export function renderConvergence(summary: ConvergenceSummary): string {
  const lines = [
    `## ${summary.header}`,
    '',
    `- Iterations: ${summary.iterations}`,
    `- Exit reason: ${summary.exit_label}`,
    `- Net change since start: ${summary.net_change}`,
    `- Notable events: ${summary.notable_events.length === 1 ? summary.notable_events[0] : ''}`,
    ...(summary.notable_events.length > 1 ? summary.notable_events.map((e) => `  - ${e}`) : []),
    '',
    '## Iteration log',
    '',
    '| # | Outcome | Resolution | Change-metric |',
    '|---|---------|------------|---------------|',
    ...summary.log.map((r) => `| ${r.n} | ${r.outcome} | ${r.resolution} | ${cell(r.change_metric)} |`),
  ];
  if (summary.why_partial) lines.push('', '## Why partial', '', summary.why_partial);
  return lines.join('\n') + '\n';
}
