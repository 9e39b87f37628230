// What a harness run keeps from phase to phase: the git facts read before any agent ran, the
// attempt in progress, the phase it is in, and the steps and endings the phases hand back.
import { guardViolations, type GitGuardFacts } from '../../engine/run/git-guard';
import type { CheckRecord } from '../../engine/run/receipt';
import { ledgerEditedTerminal, type ReviewerSummary, type Terminal } from '../../engine/run/stop-rules';
import { gitGuard, headCommit, treeState, type TreeState } from './git';
import type { AttemptOutcome, HarnessOptions, Phase } from './types';

/** Why a run ends; harness.ts turns each into its receipt (or its cancel marker) and ledger record. */
export type Ending =
  /** A stop rule ended an attempt (or the attempts ran out): the attempt is the ledger's record. */
  | { kind: 'stop'; terminal: Terminal; checks: CheckRecord[]; diffInside: string | null }
  /** The explorer failed or edited the tree: no attempt ran. */
  | { kind: 'explorer-failed'; terminal: Terminal; evidencePaths: string[] }
  /** An agent edited the ledger: it is no longer the harness's to record iterations into. */
  | { kind: 'ledger-edited'; terminal: Terminal }
  /** One of the run's own files could not be written. */
  | { kind: 'artifact-write-failed'; message: string }
  | { kind: 'cancelled'; attempt: number; phase: string };

/** What one attempt hands the next (and what a resumed run reads back from the ledger). */
export interface Carry {
  explorerResult: unknown;
  previousFindings: string[];
  lastReviewer: ReviewerSummary;
  lastChecks: CheckRecord[];
  lastDiff: string | null;
}

/** One attempt in progress: its number, its folder in the run directory, and its record so far. */
export interface Attempt {
  attempt: number;
  folder: string;
  env: Record<string, string>;
  record: AttemptOutcome;
  carry: Carry;
}

export type Step =
  | { phase: 'explore' }
  | { phase: 'code'; attempt: number; carry: Carry }
  | { phase: 'check'; current: Attempt }
  | { phase: 'review'; current: Attempt; checks: CheckRecord[]; afterChecks: TreeState; diffInside: string }
  | { phase: 'end'; ending: Ending };

export const end = (ending: Ending): Step => ({ phase: 'end', ending });

function phaseName(phase: Phase): string {
  return phase.kind === 'check' ? `check ${phase.index}/${phase.count}` : phase.kind;
}

/** The state a run keeps across its phases (src/drivers/run/phases.ts moves it on). */
export class RunState {
  /** The attempts counted on the receipt: 0 until the first attempt starts. */
  attemptsUsed = 0;
  /** The attempt whose record is not on the ledger yet (the one an ending records), if any. */
  record: AttemptOutcome | null = null;
  /** Every change to commits, git folder or index flags so far: each is a scope violation, whatever the globs allow. */
  readonly gitViolations: string[] = [];
  private current: Phase = { kind: 'explorer' };
  private currentAttempt = 0;

  private constructor(
    readonly o: HarnessOptions,
    readonly base: string | null,
    private guard: GitGuardFacts,
  ) {}

  /** Reads, before any agent of this process runs, the commits, git folder and index flags an
   *  agent could change out of the working tree's sight (engine/run/git-guard.ts). */
  static async open(o: HarnessOptions): Promise<RunState> {
    const base = await headCommit(o.repo);
    return new RunState(o, base, await gitGuard(o.repo));
  }

  /** An attempt starts: it is the one a cancel names, the receipt counts, and an ending records. */
  beginAttempt(record: AttemptOutcome): void {
    this.currentAttempt = record.attempt;
    this.attemptsUsed = record.attempt;
    this.record = record;
  }

  enter(phase: Phase, timeoutSeconds: number): void {
    this.current = phase;
    this.o.onProgress?.({
      phase,
      maxAttempts: this.o.request.maxAttempts,
      startedAt: Date.now(),
      timeoutSeconds,
    });
  }

  cancelled(): Step {
    return end({ kind: 'cancelled', attempt: this.currentAttempt, phase: phaseName(this.current) });
  }

  /** After every agent and the checks: a cancel, or an edit to the ledger the harness did not make, ends the run. */
  async guardLedger(
    role: 'explorer' | 'coder' | 'code-reviewer' | 'check',
    cancelled: boolean,
  ): Promise<Step | null> {
    if (cancelled || this.o.signal?.aborted) return this.cancelled();
    const edited = await this.o.recorder.ledgerEdited();
    return edited ? end({ kind: 'ledger-edited', terminal: ledgerEditedTerminal(role, edited) }) : null;
  }

  async checkGit(who: string): Promise<string[]> {
    const now = await gitGuard(this.o.repo);
    const found = guardViolations(this.guard, now, who);
    this.guard = now;
    this.gitViolations.push(...found);
    return found;
  }

  async snapshot(): Promise<string> {
    return (await treeState(this.o.repo, { diff: false, base: this.base })).snapshot;
  }
}
