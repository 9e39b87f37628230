// The harness's ledger side (README "loop-ledger run → On the ledger"): the session and epoch a
// run records into, each finished attempt as one iteration with its critic brief, a cancel as a
// `pause`, and a hash of the ledger after each of our writes so an agent's edit is caught.
// Each iteration takes a workspace checkpoint unless the run was told not to (--no-checkpoint).
import { brief } from '../../engine/brief';
import { close } from '../../engine/close';
import {
  attemptIteration,
  cancelledClose,
  endedWithoutRecordClose,
  explorerFailureIteration,
  FAILING_CHECKS,
} from '../../engine/run/ledger-mapping';
import { iterate, type IterateInput } from '../../engine/iterate';
import { EXIT, isRefusal } from '../../engine/refusal';
import { locateLedger } from '../../store';
import type { Ledger } from '../../engine/types';
import type { AttemptOutcome, BriefMaterial, HarnessRecorder, RunEnding } from '../../drivers/run/harness';
import {
  recordIterationCheckpoint,
  takeIterationCheckpointAsync,
  type CheckpointOptions,
  type TakenCheckpoint,
} from '../checkpoints/iteration-checkpoint';
import { fileLedgers, type SessionLedgers } from '../ledger/session-ledgers';
import { Refused } from '../outcome';

/**
 * The checkpoint a driver's iteration gets, taken without blocking the thread (from VS Code a
 * driver runs in the extension host), its ref made for the number the session's next record is
 * expected to get wherever the ledger lives: on a PostgreSQL store the record and its key go to
 * the store, the commit and its ref stay in this workspace's repository.
 */
export function iterationCheckpoint(
  ledgers: SessionLedgers,
  root: string,
  session: string,
  now: Date,
  options: CheckpointOptions,
): Promise<TakenCheckpoint> {
  return takeIterationCheckpointAsync(root, session, now, options, () => ledgers.nextRecord(session));
}

function briefInputs(m: BriefMaterial, attemptFolder: string) {
  return {
    diff: { path: `${attemptFolder}/diff.patch`, text: m.diff },
    verification: { path: `${attemptFolder}/checks.json`, text: m.verification },
    changeScope: { path: `${attemptFolder}/changed-files.txt`, text: m.changeScope },
  };
}

/**
 * The ledger key naming the last run ending the harness recorded and the SHA-256 of its saved
 * ending file (RUN_ENDING_FILE). Written in the same locked write as the ending itself, before
 * the receipt exists; the store keeps keys it does not know.
 */
export const RUN_ENDING_KEY = 'run_ending';

export interface RunEndingSeal {
  run_id: string;
  sha256: string;
}

export function withRunEnding(ledger: Ledger, seal: RunEndingSeal): Ledger {
  return { ...ledger, [RUN_ENDING_KEY]: seal } as Ledger;
}

/** The seal a ledger holds, when it is whole. */
export function runEndingOf(ledger: Ledger): RunEndingSeal | null {
  const seal = (ledger as unknown as Record<string, unknown>)[RUN_ENDING_KEY];
  if (seal === null || typeof seal !== 'object') return null;
  const { run_id: runId, sha256 } = seal as Record<string, unknown>;
  return typeof runId === 'string' && typeof sha256 === 'string' ? { run_id: runId, sha256 } : null;
}

export function endingReason(ending: RunEnding): string {
  const terminal = ending.kind === 'attempt' ? ending.outcome.terminal : ending.terminal;
  return terminal?.stop_reason ?? 'unknown';
}

export class LedgerRecorder implements HarnessRecorder {
  /** The ledger's version as the run began, then after each of its writes. */
  private lastVersion: Promise<string>;
  private briefMaterial = new Map<string, BriefMaterial>();

  constructor(
    private readonly root: string,
    private readonly session: string,
    private readonly runId: string,
    private readonly runDirRel: string,
    private readonly now: () => Date,
    /** false: no checkpoint per iteration; otherwise how each is taken. */
    private readonly checkpoints: false | CheckpointOptions = {},
    private readonly ledgers: SessionLedgers = fileLedgers(root),
  ) {
    // Read now, before any agent of the run can touch the ledger.
    this.lastVersion = ledgers.version(session);
  }

  async ledgerEdited(): Promise<string | null> {
    const version = await this.ledgers.version(this.session);
    if (version === (await this.lastVersion)) return null;
    const where =
      this.ledgers.store === undefined
        ? locateLedgerPath(this.root, this.session)
        : `${this.session} in the PostgreSQL store ${this.ledgers.store}`;
    return `${where} changed while the run was not writing it`;
  }

  async prepareBrief(material: BriefMaterial): Promise<{ briefId: string; packet: unknown } | null> {
    const ledger = await this.ledgers.load(this.session);
    const result = brief(ledger, briefInputs(material, this.runDirRel));
    if (isRefusal(result)) return null; // an empty diff: the verdict goes in the note instead
    this.briefMaterial.set(result.payload.brief_id, material);
    return { briefId: result.payload.brief_id, packet: result.payload };
  }

  async recordAttempt(outcome: AttemptOutcome): Promise<void> {
    await this.write((ledger) => this.attemptLedger(ledger, outcome), true);
  }

  async recordEnding(ending: RunEnding, endingDigest: string): Promise<string[]> {
    const vouched = (ledger: Ledger) =>
      withRunEnding(this.endingLedger(ledger, ending), { run_id: this.runId, sha256: endingDigest });
    if (ending.kind !== 'close') {
      try {
        await this.write(vouched, true);
      } catch (error) {
        if (!(error instanceof Refused)) throw error;
        // No receipt is written for an ending the ledger did not take: a PASS on disk with no
        // record behind it is what a forger would leave, too.
        throw new Refused(error.exitCode, [
          `${this.session}: run ${this.runId} ended (${endingReason(ending)}) but the ledger did not take its ending, so no receipt was written; fix the ledger and run again with --session ${this.session} to finish it`,
          ...error.findings,
        ]);
      }
      return [];
    }
    // The ledger was edited by an agent (or the run's files failed): it may no longer be open or
    // even readable. Closing it is best effort; the receipt (never a PASS) stands either way.
    try {
      await this.write(vouched);
      return [];
    } catch (error) {
      if (!(error instanceof Refused)) throw error;
      const why = error.findings.map((f) => f.message).join('; ');
      return [
        `${this.session}: the run's epoch was not closed (${why}); close it yourself once the ledger is checked`,
      ];
    }
  }

  /** The ledger with the run's ending recorded (pure over `ledger`; the caller writes it). */
  endingLedger(ledger: Ledger, ending: RunEnding): Ledger {
    switch (ending.kind) {
      case 'attempt':
        return this.attemptLedger(ledger, ending.outcome);
      case 'explorer-failure':
        return this.iterateOrFallback(
          ledger,
          explorerFailureIteration(this.runId, ending.terminal, ending.receiptPath, ending.evidencePaths),
        );
      case 'close': {
        const result = close(
          ledger,
          endedWithoutRecordClose(this.runId, ending.terminal, ending.receiptPath),
        );
        if (isRefusal(result)) throw new Refused(result.exitCode, result.findings);
        return result.ledger;
      }
    }
  }

  private attemptLedger(ledger: Ledger, outcome: AttemptOutcome): Ledger {
    let armed = ledger;
    let briefId = outcome.briefId;
    const material = briefId ? this.briefMaterial.get(briefId) : undefined;
    if (briefId && material) {
      const armedResult = brief(ledger, briefInputs(material, this.runDirRel));
      if (isRefusal(armedResult) || armedResult.payload.brief_id !== briefId) briefId = null;
      else armed = armedResult.ledger;
    } else {
      briefId = null; // nothing to arm it from: the verdict goes in the note
    }
    const measure = (ledger.contract.quality_rubric ?? []).some((d) => d.dimension === FAILING_CHECKS);
    const input = attemptIteration({
      ...outcome,
      briefId,
      runId: this.runId,
      runDir: this.runDirRel,
      measureFailingChecks: measure,
    });
    return this.iterateOrFallback(armed, input);
  }

  async recordCancel(attempt: number, phase: string, markerPath: string): Promise<void> {
    await this.write((ledger) => {
      const result = close(ledger, cancelledClose(this.runId, attempt, phase, markerPath));
      if (isRefusal(result)) throw new Refused(result.exitCode, result.findings);
      return result.ledger;
    });
  }

  /**
   * The mapped record, or — when the contract makes `iterate` refuse it (a user's rubric with a
   * hard gate under `retain`, say) — the same record without its critic and measurement fields,
   * the refusal kept in the note. A run is never lost for want of a ledger line.
   */
  private iterateOrFallback(ledger: Ledger, input: Omit<IterateInput, 'now'>): Ledger {
    const first = iterate(ledger, { ...input, now: this.now() });
    if (!isRefusal(first)) return first.ledger;
    const plain: Omit<IterateInput, 'now'> = {
      ...input,
      criticBrief: null,
      criticVerdict: null,
      criticNext: null,
      decision: null,
      measures: [],
      note: [input.note, `ledger refused the full record: ${first.findings.map((f) => f.message).join('; ')}`]
        .filter(Boolean)
        .join('\n'),
    };
    const second = iterate(ledger, { ...plain, now: this.now() });
    if (isRefusal(second)) throw new Refused(second.exitCode, second.findings);
    return second.ledger;
  }

  /**
   * `iteration`: the write adds an iteration, which gets the workspace's checkpoint, taken
   * without blocking the thread (a run from VS Code runs in the extension host); only its ref is
   * created in the locked write.
   */
  private async write(decide: (ledger: Ledger) => Ledger, iteration = false): Promise<void> {
    const options = this.checkpoints;
    const taken =
      iteration && options !== false
        ? await iterationCheckpoint(this.ledgers, this.root, this.session, this.now(), options)
        : null;
    await this.ledgers.update(this.session, (ledger) => {
      if (ledger === null) throw new Refused(EXIT.usage, [`${this.session}: no ledger (open one first)`]);
      const next = decide(ledger);
      return {
        write: taken ? recordIterationCheckpoint(ledger, next, taken, this.session) : next,
        result: undefined,
      };
    });
    this.lastVersion = this.ledgers.version(this.session);
    await this.lastVersion;
  }
}

function locateLedgerPath(root: string, session: string): string {
  return locateLedger(root, session).writePath;
}
