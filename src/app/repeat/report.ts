// The end of a `repeat` call: the follow-up, the convergence summary, the
// state file `.loop/repeat/<session>.md`, and the exit code.
import { convergenceSummary, renderConvergence } from '../../engine/repeat/convergence';
import { interpretAnswer } from '../../engine/repeat/answer';
import {
  FOLLOW_UP_DECLINED,
  FOLLOW_UP_WAITING,
  followUpAnswered,
  followUpPlan,
  keepFollowUpQuestion,
} from '../../engine/repeat/follow-up';
import {
  EXIT_REASONS,
  repeatRecords,
  type FollowUpResult,
  type PendingQuestion,
  type RepeatState,
} from '../../engine/repeat/state';
import { EXIT } from '../../engine/refusal';
import type { IterationRecord, Ledger } from '../../engine/types';
import { netChange } from '../../drivers/repeat/capture';
import { runStep } from '../../drivers/repeat/run-step';
import { writeStateFile } from '../../drivers/repeat/sidecar';
import { Refused } from '../outcome';
import { REPEAT_EXIT, type RepeatExitCode, type RepeatReport, type RepeatRequest } from './types';

/**
 * The follow-up, as the engine plans it (followUpPlan). A confirmation is answered by --answer,
 * else asked through the Asker (an unclear answer is read back); unanswered, the question is kept
 * on the returned state and the result says it is waiting.
 */
export async function runFollowUp(
  request: RepeatRequest,
  state: RepeatState,
): Promise<{ result: FollowUpResult | null; state: RepeatState }> {
  const plan = followUpPlan(state);
  const command = state.follow_up ?? '';
  const notRun = (reason: string): FollowUpResult => ({ command, ran: false, exit_code: null, reason });
  if (plan.kind === 'none') return { result: null, state };
  if (plan.kind === 'skip') return { result: notRun(plan.reason), state };
  let next = state;
  if (plan.kind === 'confirm') {
    const answer = await answerFor(request, plan.question);
    if (answer === undefined)
      return { result: notRun(FOLLOW_UP_WAITING), state: keepFollowUpQuestion(state, plan.question) };
    next = followUpAnswered(state, answer);
    if (answer === 'decline') return { result: notRun(FOLLOW_UP_DECLINED), state: next };
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
      ? plan.kind === 'confirm'
        ? 'ran after a Stay, confirmed'
        : 'ran after a clean exit'
      : `exited ${result.exitCode ?? result.signal}${result.stderrTail ? `: ${result.stderrTail}` : ''}`;
  return { result: { command, ran: true, exit_code: result.exitCode, reason }, state: next };
}

/** --answer (used once), else the Asker until a clear answer; undefined = nobody answered. */
async function answerFor(
  request: RepeatRequest,
  question: PendingQuestion,
): Promise<'run' | 'decline' | undefined> {
  const given = request.answer;
  request.answer = undefined;
  if (given !== undefined) {
    const reading = interpretAnswer(question.options, given);
    if (reading.kind === 'unclear') throw new Refused(EXIT.usage, [`--answer ${reading.message}`]);
    return reading.option as 'run' | 'decline';
  }
  if (!request.asker) return undefined;
  for (;;) {
    const typed = await request.asker.ask(question);
    if (typed === undefined) return undefined;
    const reading = interpretAnswer(question.options, typed);
    if (reading.kind === 'clear') return reading.option as 'run' | 'decline';
    request.asker.tell(reading.message);
  }
}

export function exitCodeFor(state: RepeatState, followUp: FollowUpResult | null): RepeatExitCode {
  // Paused, or settled with the follow-up's question still open: both wait for --answer.
  if (state.status !== 'finished' || state.pending !== null) return REPEAT_EXIT.paused;
  if (state.exit_reason === null || !EXIT_REASONS[state.exit_reason].clean) return REPEAT_EXIT.partial;
  if (followUp?.ran && followUp.exit_code !== 0) return REPEAT_EXIT.followUpFailed;
  return REPEAT_EXIT.clean;
}

function stateFileText(session: string, state: RepeatState, summaryMarkdown: string): string {
  const lines = [`# Repeat — session ${session}`, ''];
  if (state.pending) {
    lines.push(
      `${state.status === 'paused' ? 'Paused' : 'Settled'} at iteration ${state.pending.iteration}: ${state.pending.recommendation}.`,
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
    question: state.pending,
    summary,
    follow_up: followUp,
    state_file: stateFile,
    notes,
  };
}
