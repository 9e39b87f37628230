// The end of a `repeat` call: the follow-up (reference §8), the convergence summary (§9), the
// state file `.loop/repeat/<session>.md`, and the exit code.
import { convergenceSummary, renderConvergence } from '../engine/repeat/convergence';
import { EXIT_REASONS, repeatRecords, type FollowUpResult, type RepeatState } from '../engine/repeat/state';
import type { IterationRecord, Ledger } from '../engine/types';
import { netChange } from '../drivers/repeat/capture';
import { runStep } from '../drivers/repeat/run-step';
import { writeStateFile } from '../drivers/repeat/sidecar';
import { REPEAT_EXIT, type RepeatReport, type RepeatRequest } from './repeat-types';

export async function runFollowUp(
  request: RepeatRequest,
  state: RepeatState,
): Promise<FollowUpResult | null> {
  const command = state.follow_up;
  if (command === null || state.exit_reason === null) return null;
  const skip = (reason: string): FollowUpResult => ({ command, ran: false, exit_code: null, reason });
  if (!EXIT_REASONS[state.exit_reason].clean) return skip('partial convergence: the follow-up is not run');
  if (state.exit_reason === 'settled-via-cycle') {
    const ok = request.asker
      ? await request.asker.confirm(
          `The loop settled by staying at a cycle's fixed point. Run the follow-up "${command}" now?`,
        )
      : undefined;
    if (ok !== true)
      return skip('settled via a cycle (Stay): check the state, then run the follow-up yourself');
  }
  const result = await runStep({
    command,
    cwd: request.root,
    env: {},
    timeoutMs: request.timeoutMs,
    signal: request.signal,
  });
  const reason = result.timedOut
    ? `timed out after ${request.timeoutMs} ms`
    : result.exitCode === 0
      ? 'ran after a clean exit'
      : `exited ${result.exitCode ?? result.signal}${result.stderrTail ? `: ${result.stderrTail}` : ''}`;
  return { command, ran: true, exit_code: result.exitCode, reason };
}

export function exitCodeFor(state: RepeatState, followUp: FollowUpResult | null): number {
  if (state.status !== 'finished') return REPEAT_EXIT.paused;
  if (state.exit_reason === null || !EXIT_REASONS[state.exit_reason].clean) return REPEAT_EXIT.partial;
  if (followUp?.ran && followUp.exit_code !== 0) return REPEAT_EXIT.followUpFailed;
  return REPEAT_EXIT.clean;
}

function stateFileText(session: string, state: RepeatState, summaryMarkdown: string): string {
  const lines = [`# Repeat — session ${session}`, ''];
  if (state.status === 'paused' && state.pending) {
    lines.push(
      `Paused at iteration ${state.pending.iteration}: ${state.pending.recommendation}.`,
      '',
      '## Open question',
      '',
      state.pending.text,
      '',
      `Answer with \`loop-ledger repeat --session ${session} --answer WORD\` (WORD: ${state.pending.options.join(', ')}).`,
      '',
    );
  } else if (state.status === 'running') {
    lines.push(
      `Interrupted at iteration ${state.iteration}: continue with \`loop-ledger repeat --session ${session}\`.`,
      '',
    );
  }
  lines.push(
    '## Loop state',
    '',
    `- inner: \`${state.inner}\``,
    `- follow-up: ${state.follow_up ? `\`${state.follow_up}\`` : 'none'}`,
    `- max: ${state.max ?? 'none'}; recipe: ${state.recipe}; scope: ${state.scope.join(' ') || '(whole root)'}; exclude: ${state.exclude.join(' ') || '(defaults)'}`,
    `- counters: iteration ${state.iteration}, consecutive stalls ${state.consecutive_stalls}, total stalls ${state.total_stalls}, first pauses ${state.first_pause_count}, forward escapes ${state.forward_escape_attempts}`,
    '',
    summaryMarkdown,
  );
  return lines.join('\n');
}

export async function buildReport(
  request: RepeatRequest,
  ledger: Ledger,
  state: RepeatState,
  followUp: FollowUpResult | null,
  notes: string[],
): Promise<RepeatReport> {
  const { root, session } = request;
  const records = repeatRecords(ledger, state);
  const touched = (ledger.iterations as IterationRecord[])
    .filter((r) => r.n >= state.first_record)
    .flatMap((r) => r.files_changed);
  const options = { root, scope: state.scope, exclude: state.exclude };
  const finalKey = records.length > 0 ? (records[records.length - 1]?.state as string) : state.start_state;
  const net = await netChange(root, options, state.recipe, state.start_state, finalKey, touched).catch(
    (error: Error) => `(not measured: ${error.message})`,
  );
  const summary = convergenceSummary(state, records, net, session);
  const markdown = renderConvergence(summary);
  const stateFile = writeStateFile(root, session, stateFileText(session, state, markdown));
  return {
    session,
    status: state.status,
    exit_reason: state.exit_reason,
    iterations: state.iteration,
    question: state.status === 'paused' ? state.pending : null,
    summary,
    follow_up: followUp,
    state_file: stateFile,
    notes,
  };
}
