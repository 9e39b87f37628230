// One harness run: explorer once, then attempts of coder → checks → code-reviewer until a
// terminal state, then the receipt. The phases (src/drivers/run/phases.ts) gather facts
// (processes, git) and the engine's stop rules decide; each hands back the next phase or the
// run's ending, which is written here, in one place. The recorder (src/app/run/ledger.ts) puts
// each attempt on the ledger as it finishes, so a crash or a cancel resumes at the first
// unrecorded step.
import { createHash } from 'node:crypto';
import { violationPath } from '../../engine/run/git-guard';
import { buildReceipt, type CheckRecord, type FinalReceipt } from '../../engine/run/receipt';
import { finishTerminal, type Terminal } from '../../engine/run/stop-rules';
import { isoUtc } from '../../engine/utc-iso';
import { ArtifactWriteError } from './artifacts';
import { treeState } from './git';
import { advance, first } from './phases';
import { RunState, type Ending } from './state';
import type { HarnessOptions, HarnessResult, RunEnding } from './types';

export { FRESH_START } from './types';
// What the run's callers use, from where they have always found it.
export type {
  AttemptOutcome,
  BriefMaterial,
  HarnessRecorder,
  Progress,
  RunEnding,
  StartPoint,
} from './types';

/**
 * The run's ending and its receipt, written before the ledger records the ending (with this
 * file's digest) and before the receipt is written: a crash after the ledger write is finished
 * from it by the next run of the session (src/app/run/recover.ts). An agent can write this file
 * too; only a copy whose digest the ledger holds is trusted.
 */
export const RUN_ENDING_FILE = 'ledger-ending.json';

/** What RUN_ENDING_FILE holds, as text: the ledger keeps the SHA-256 of exactly these bytes. */
export function endingFileText(runId: string, ending: RunEnding, receipt: FinalReceipt): string {
  return JSON.stringify({ ending, receipt, run_id: runId }, null, 2) + '\n';
}

export function receiptText(receipt: FinalReceipt): string {
  return JSON.stringify(receipt, null, 2) + '\n';
}

export async function runHarness(o: HarnessOptions): Promise<HarnessResult> {
  const state = await RunState.open(o);
  let step = first(state);
  while (step.phase !== 'end') step = await advance(state, step);
  return conclude(state, step.ending);
}

/**
 * The one place a run ends. A stop whose own files cannot be written ends instead as the agent
 * failure a failed write is anywhere else; a second failed write, or any other failure, throws.
 */
async function conclude(state: RunState, ending: Ending): Promise<HarnessResult> {
  try {
    return await writeEnding(state, ending);
  } catch (error) {
    const stopped = ending.kind === 'stop' || ending.kind === 'explorer-failed';
    if (stopped && error instanceof ArtifactWriteError) {
      return await writeEnding(state, { kind: 'artifact-write-failed', message: error.message });
    }
    throw error;
  }
}

const terminalOf = ({ final_verdict, stop_reason, reviewer }: FinalReceipt): Terminal => ({
  final_verdict,
  stop_reason,
  reviewer,
});

const closeEnding = (receipt: FinalReceipt, receiptPath: string): RunEnding => ({
  kind: 'close',
  terminal: terminalOf(receipt),
  receiptPath,
});

async function writeEnding(state: RunState, ending: Ending): Promise<HarnessResult> {
  switch (ending.kind) {
    case 'cancelled': {
      const { o } = state;
      const marker = await o.run.writeJson('cancelled.json', {
        attempt: ending.attempt,
        cancelled_at: isoUtc(Date.now()),
        phase: ending.phase,
        run_id: o.runId,
      });
      await o.recorder.recordCancel(ending.attempt, ending.phase, o.run.repoRelative('cancelled.json'));
      return { kind: 'cancelled', marker, attempt: ending.attempt, phase: ending.phase };
    }
    case 'explorer-failed':
      return finish(state, ending.terminal, [], null, (receipt, receiptPath) => ({
        kind: 'explorer-failure',
        terminal: terminalOf(receipt),
        receiptPath,
        evidencePaths: ending.evidencePaths,
      }));
    case 'stop': {
      const record = state.record;
      return finish(state, ending.terminal, ending.checks, ending.diffInside, (receipt, receiptPath) => {
        if (!record) return closeEnding(receipt, receiptPath);
        return { kind: 'attempt', outcome: { ...record, terminal: terminalOf(receipt), receiptPath } };
      });
    }
    case 'ledger-edited':
      // The ledger is no longer ours to record iterations into: the receipt says why, and the
      // epoch is closed as the receipt's BLOCKED/AGENT_FAILED maps (escalate), naming the edit.
      return finish(state, ending.terminal, state.record?.checks ?? [], null, closeEnding, true);
    case 'artifact-write-failed': {
      const terminal: Terminal = {
        final_verdict: 'BLOCKED',
        stop_reason: 'AGENT_FAILED',
        reviewer: {
          verdict: 'BLOCKED',
          edited_files: false,
          findings: [`artifact write failed: ${ending.message}`],
        },
      };
      return finish(state, terminal, state.record?.checks ?? [], null, closeEnding);
    }
  }
}

/**
 * Ending file, then ledger, then receipt: a receipt exists only once the ledger holds its
 * ending, so a receipt the ledger does not vouch for was not written by the harness.
 */
async function finish(
  state: RunState,
  terminal: Terminal,
  checks: CheckRecord[],
  diffInside: string | null,
  endingOf: (receipt: FinalReceipt, receiptPath: string) => RunEnding,
  ledgerEdited = false,
): Promise<HarnessResult> {
  const { o, gitViolations } = state;
  const { request, run } = o;
  state.enter({ kind: 'finishing' }, 0);
  const tree = await treeState(o.repo, { diff: diffInside !== null, base: state.base });
  const changed = [...new Set([...tree.changedFiles, ...gitViolations.map(violationPath)])].sort();
  const final = finishTerminal(terminal, changed, request.allowedGlobs, gitViolations);
  if (diffInside !== null) await run.write(diffInside, tree.diff);
  const receipt = buildReceipt({
    runId: o.runId,
    objective: request.objective,
    terminal: final,
    attemptsUsed: state.attemptsUsed,
    maxAttempts: request.maxAttempts,
    allowedGlobs: request.allowedGlobs,
    changedFiles: changed,
    checks,
    runDir: run.relPath,
    finalDiff: diffInside === null ? '' : run.repoRelative(diffInside),
  });
  const ending = endingOf(receipt, run.repoRelative('final-receipt.json'));
  const endingText = endingFileText(o.runId, ending, receipt);
  await run.write(RUN_ENDING_FILE, endingText, true);
  const warnings = await o.recorder.recordEnding(
    ending,
    createHash('sha256').update(endingText, 'utf8').digest('hex'),
  );
  await run.write('final-receipt.json', receiptText(receipt), true);
  return {
    kind: 'receipt',
    receipt,
    exitCode: final.final_verdict === 'PASS' ? 0 : 1,
    ledgerEdited,
    warnings,
  };
}
