// `repeat`: run an inner step until the workspace settles. Each step: capture → run → capture →
// ask the engine (classifyRepeat via recordRepeatRun) → write the ledger. Pauses ask through the
// shell's Asker, or, with nobody to ask, leave the ledger paused and the question in
// `.loop/repeat/<session>.md` for `repeat --answer`. Never backwards: nothing here resets,
// checks out or overwrites the workspace. Each recorded run carries a workspace checkpoint
// (objects and a private ref only; see docs/checkpoints.md) unless the request says not to.
import { rmSync } from 'node:fs';
import { isAbsolute, join, relative } from 'node:path';
import { close } from '../../engine/close';
import { EXIT, isRefusal, type Refusal } from '../../engine/refusal';
import {
  answerRepeat,
  finishRepeat,
  markIndeterminate,
  noRunLeft,
  readRepeatState,
  recordRepeatRun,
  startRefusal,
  startRepeat,
  withRepeatState,
} from '../../engine/repeat/ledger';
import { resume } from '../../engine/resume';
import { interpretAnswer } from '../../engine/repeat/answer';
import { summaryTag } from '../../engine/repeat/summary';
import { repeatUnfinished, type FollowUpResult, type RepeatState } from '../../engine/repeat/state';
import type { Ledger } from '../../engine/types';
import { capture, describeChange, pickRecipe, type CaptureOptions } from '../../drivers/repeat/capture';
import { runStep } from '../../drivers/repeat/run-step';
import {
  claimRepeat,
  clearRunMarker,
  confineRepeatFiles,
  endOrphanedStep,
  newRunToken,
  writeRunMarker,
} from '../../drivers/repeat/sidecar';
import { LEDGER_SIZE_LIMIT } from '../../store/limits';
import { readBoundedText } from '../../store/bounded-read';
import { OutsideRootError } from '../../store/confine';
import { recordIterationCheckpoint } from '../checkpoints/iteration-checkpoint';
import { fileLedgers, type SessionLedgers } from '../ledger/session-ledgers';
import { iterationCheckpoint } from '../run/ledger';
import { Refused } from '../outcome';
import { buildReport, exitCodeFor, runFollowUp } from './report';
import type { RepeatOutcome, RepeatRequest } from './types';

type Transition = { ledger: Ledger; state: RepeatState } | Refusal;

/** Applies an engine transition to the freshly read ledger under its lock; a refusal throws. */
function transact<T extends { ledger: Ledger; state: RepeatState }>(
  ledgers: SessionLedgers,
  session: string,
  step: (ledger: Ledger) => T | Refusal,
): Promise<T> {
  return ledgers.update(session, (ledger) => {
    if (ledger === null) throw new Refused(EXIT.usage, [`${session}: no readable ledger (open one first)`]);
    const result = step(ledger);
    if (isRefusal(result)) throw new Refused(result.exitCode, result.findings);
    return { write: result.ledger, result };
  });
}

/** Where the request's ledger lives (default: the files under its root). */
function ledgersOf(request: RepeatRequest): SessionLedgers {
  return request.ledgers ?? fileLedgers(request.root);
}

function captureOptions(root: string, state: RepeatState): CaptureOptions {
  const exclude = [...state.exclude];
  // The summary file is the step's message to us, not part of the work.
  if (state.summary_file) exclude.push(`/${relative(root, summaryPath(root, state.summary_file))}`);
  return { root, scope: state.scope, exclude };
}

function summaryPath(root: string, file: string): string {
  return isAbsolute(file) ? file : join(root, file);
}

function readSummary(root: string, state: RepeatState, stdout: string): string {
  if (!state.summary_file) return stdout;
  try {
    return readBoundedText(summaryPath(root, state.summary_file), LEDGER_SIZE_LIMIT);
  } catch {
    return ''; // no summary this run: ambiguous, so never a settle
  }
}

export async function repeatOperation(request: RepeatRequest): Promise<RepeatOutcome> {
  try {
    await ledgersOf(request).load(request.session); // bad id, no ledger: refused before any file is made
    confinedOrRefused(() => confineRepeatFiles(request.root, request.session));
    const claim = claimRepeat(request.root, request.session);
    if ('busy' in claim) {
      throw new Refused(EXIT.wrongState, [`${request.session}: ${claim.message}`]);
    }
    try {
      return await repeatBody(request);
    } finally {
      claim.release();
    }
  } catch (error) {
    if (error instanceof Refused) return { exitCode: error.exitCode, findings: error.findings };
    if (error instanceof OutsideRootError)
      return { exitCode: EXIT.usage, findings: [{ message: error.message }] };
    throw error;
  }
}

/** A repeat file outside the root, or a link in its place: refused (exit 2) before anything is written. */
function confinedOrRefused(check: () => void): void {
  try {
    check();
  } catch (error) {
    if (error instanceof OutsideRootError) throw new Refused(EXIT.usage, [error.message]);
    throw error;
  }
}

async function repeatBody(request: RepeatRequest): Promise<RepeatOutcome> {
  const { root, session } = request;
  const ledgers = ledgersOf(request);
  const now = request.now ?? (() => new Date());
  const notes: string[] = [];
  let { ledger, state } = await begin(request, notes);

  while (state.status === 'paused') {
    const answered = await answerPause(request, ledger, state);
    if (answered === null) break;
    ({ ledger, state } = answered);
  }

  while (state.status === 'running') {
    if (request.signal?.aborted || request.stop?.aborted) {
      ({ ledger, state } = await transact(ledgers, session, (l) => pauseForCancel(l)));
      notes.push('cancelled between iterations: the ledger records pause; continue with repeat --session');
      break;
    }
    if (noRunLeft(ledger, state)) {
      ({ ledger, state } = await transact(ledgers, session, (l) => finishRepeat(l, state, 'max-cap')));
      break;
    }
    const options = captureOptions(root, state);
    const pre = await capture(state.recipe, options);
    if (state.summary_file) rmSync(summaryPath(root, state.summary_file), { force: true });
    const token = newRunToken();
    const iteration = state.iteration + 1;
    const step = await runStep({
      command: state.inner,
      cwd: root,
      env: {
        LOOP_LEDGER_DIRECTIVE: state.directive ?? undefined,
        LOOP_LEDGER_ITERATION: String(iteration),
        LOOP_LEDGER_SESSION: session,
        LOOP_LEDGER_REPEAT_RUN: token,
      },
      timeoutMs: request.timeoutMs,
      signal: request.signal,
      onStart: (pid) => writeRunMarker(root, session, { pid, token, iteration }),
    });
    clearRunMarker(root, session);
    if (step.aborted) {
      // A cancelled run is not an iteration: nothing is recorded for it but the pause.
      ({ ledger, state } = await transact(ledgers, session, (l) => pauseForCancel(l)));
      notes.push(`cancelled during iteration ${iteration}: the step was stopped and not recorded`);
      break;
    }
    const post = await capture(state.recipe, options);
    const summary = readSummary(root, state, step.stdout);
    const change = await describeChange(root, options, pre, post);
    const before = state;
    // Taken without blocking the thread: from VS Code, repeat runs in the extension host.
    const taken =
      request.checkpoint === false
        ? null
        : await iterationCheckpoint(ledgers, root, session, now(), {
            maxFileMB: request.checkpointMaxFileMB,
          });
    const recorded = await transact(ledgers, session, (l) => {
      const current = readRepeatState(l);
      if (isRefusal(current)) return current;
      const result = recordRepeatRun(l, current ?? before, {
        pre: pre.key,
        post: post.key,
        summary,
        exitCode: step.timedOut ? null : step.exitCode,
        failure: step.timedOut ? `timed out after ${request.timeoutMs} ms` : step.stderrTail || null,
        changeMetric: change.metric,
        filesChanged: change.files,
        command: state.inner,
        now: now(),
      });
      if (isRefusal(result) || taken === null) return result;
      return { ...result, ledger: recordIterationCheckpoint(l, result.ledger, taken, session) };
    });
    ({ ledger, state } = recorded);
    request.onProgress?.({
      iteration: recorded.record.iteration,
      classification: recorded.record.classification,
      changeMetric: change.metric,
      tag: summaryTag(summary),
    });
    while (state.status === 'paused') {
      const answered = await answerPause(request, ledger, state);
      if (answered === null) break;
      ({ ledger, state } = answered);
    }
  }

  if (state.status === 'paused' && state.exit_reason === null) {
    ({ ledger, state } = await transact(ledgers, session, (l) => {
      const current = readRepeatState(l);
      if (isRefusal(current) || current === null) return current ?? { ledger: l, state };
      return markIndeterminate(l, current);
    }));
  }
  let followUp: FollowUpResult | null = null;
  if (state.status === 'finished') ({ result: followUp, state } = await runFollowUp(request, state));
  const report = await buildReport(request, ledger, state, followUp, notes);
  // The summary, what became of the follow-up and any question still open are saved with the
  // loop's state, so a later --answer (or resume) and the VS Code pick see them.
  const saved: RepeatState = {
    ...state,
    convergence: report.summary,
    ...(followUp ? { follow_up_result: followUp } : {}),
  };
  await transact(ledgers, session, (l) => ({ ledger: withRepeatState(l, saved), state: saved }));
  return { exitCode: exitCodeFor(state, followUp), payload: report, findings: [] };
}

/** Start a new repeat, or pick up the session's (answering, or resuming after a crash). */
async function begin(
  request: RepeatRequest,
  notes: string[],
): Promise<{ ledger: Ledger; state: RepeatState }> {
  const { root, session, start } = request;
  const ledgers = ledgersOf(request);
  const ledger = await ledgers.load(session);
  const existing = readRepeatState(ledger);
  if (isRefusal(existing)) throw new Refused(existing.exitCode, existing.findings);
  if (start) {
    if (request.answer !== undefined)
      throw new Refused(EXIT.usage, ['--answer continues a paused repeat; it takes no new inner step']);
    // startRepeat checks again under the lock; checked here first so nothing is captured in vain.
    const refused = startRefusal(ledger);
    if (refused) throw new Refused(refused.exitCode, refused.findings);
    const recipe = await chooseRecipe(request);
    const options: CaptureOptions = { root, scope: start.scope, exclude: start.exclude };
    if (start.summaryFile)
      options.exclude = [...start.exclude, `/${relative(root, summaryPath(root, start.summaryFile))}`];
    const startState = (await capture(recipe, options)).key;
    return await transact(ledgers, session, (l) =>
      startRepeat(l, {
        inner: start.inner,
        followUp: start.followUp,
        max: start.max,
        recipe,
        scope: start.scope,
        exclude: start.exclude,
        summaryFile: start.summaryFile,
        startState,
      }),
    );
  }
  if (existing === null || !repeatUnfinished(existing)) {
    throw new Refused(EXIT.wrongState, [
      `${session}: no repeat to continue${existing ? ` (the last one ended: ${existing.exit_reason ?? 'finished'})` : ''}; start one with --spec or an inner command after --`,
    ]);
  }
  if (request.answer !== undefined && existing.pending === null) {
    throw new Refused(EXIT.wrongState, [
      `${session}: the repeat is not waiting for an answer (it is ${existing.status})`,
    ]);
  }
  if (existing.status === 'running') {
    const orphan = await endOrphanedStep(root, session);
    if (orphan) notes.push(orphan);
    // A cancel (or a crash between a pause record and its answer) can leave the ledger paused.
    if (ledger.status === 'closed') return await transact(ledgers, session, (l) => reopen(l, existing));
  }
  return { ledger, state: existing };
}

function reopen(ledger: Ledger, state: RepeatState): Transition {
  const resumed = resume(ledger);
  if (isRefusal(resumed)) return resumed;
  return { ledger: withRepeatState(resumed.ledger, state), state };
}

function pauseForCancel(ledger: Ledger): Transition {
  const state = readRepeatState(ledger);
  if (isRefusal(state)) return state;
  if (state === null) throw new Refused(EXIT.wrongState, ['no repeat on this ledger']);
  const closed = close(ledger, { outcome: 'pause', note: 'repeat: cancelled between iterations' });
  if (isRefusal(closed)) return closed;
  return { ledger: withRepeatState(closed.ledger, state), state };
}

async function chooseRecipe(request: RepeatRequest): Promise<'git' | 'fs'> {
  const pick = await pickRecipe(request.root, request.start?.recipe);
  if ('recipe' in pick) return pick.recipe;
  if ('error' in pick) throw new Refused(EXIT.usage, [pick.error]);
  const chosen = request.asker ? await request.asker.pickRecipe(pick.ambiguous) : undefined;
  if (chosen) return chosen;
  throw new Refused(EXIT.usage, [`--recipe: ${pick.ambiguous}; choose --recipe git or --recipe fs`]);
}

/**
 * One answer to the pending question: from --answer (once), else from the Asker (an unclear
 * answer is read back and asked again). null = nobody answered: the repeat stays paused.
 */
async function answerPause(
  request: RepeatRequest,
  ledger: Ledger,
  state: RepeatState,
): Promise<{ ledger: Ledger; state: RepeatState } | null> {
  const pending = state.pending;
  if (pending === null) return null;
  let answer = request.answer;
  request.answer = undefined; // --answer answers the pause that was pending when it was given
  let change = request.change ?? {};
  if (answer === undefined) {
    const asker = request.asker;
    if (!asker) return null;
    for (;;) {
      const typed = await asker.ask(pending);
      if (typed === undefined) return null;
      const reading = interpretAnswer(pending.options, typed);
      if (reading.kind === 'unclear') {
        asker.tell(reading.message);
        continue;
      }
      if (reading.option === 'change-scope') {
        const scope = await asker.askScope();
        if (scope === undefined) return null;
        if (!scope.scope?.length && !scope.exclude?.length && !scope.inner) {
          asker.tell('change-scope needs a new scope or inner command; nothing changed');
          continue;
        }
        change = scope;
      }
      answer = reading.option;
      break;
    }
  }
  const chosen = answer;
  return transact(ledgersOf(request), request.session, (l) => answerRepeat(l, chosen, change));
}
