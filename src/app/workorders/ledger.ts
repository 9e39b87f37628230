// The ledger view of a work-order run: a session per work order (id = its short id), an epoch
// per attempt. Dispatch (re)opens; build/review/critique are `continue` iterations with actions
// `wo-NN/aK/<phase>` (an action already complete is skipped on resume); the verdict closes:
// CLEAN `complete`, RETRYABLE `revise`, TERMINAL `escalate`, kill `stop`. The sidecar, not the
// ledger, is the cap's authority: a ledger problem is reported and never stops the queue.
// Each phase iteration carries a checkpoint of the root's workspace unless `--no-checkpoint`;
// when the builds happen in another work tree than the root, the record says so instead.
import { realpathSync } from 'node:fs';
import { isAbsolute, join, relative, resolve } from 'node:path';
import { EXIT } from '../../engine/refusal';
import type { Outcome as LoopOutcome } from '../../engine/types';
import { writeFileAtomicSync } from '../../store';
import type { EngineeringIterateInput } from '../../engine/engineering/iterate';
import type { IterationRecord, Ledger } from '../../engine/types';
import { openOp, openStep } from '../contract/operations';
import { loadLedger } from '../ledger/access';
import { closeOp, iterateOp } from '../ledger/operations';
import { iterateTakenOp } from '../checkpoints/iterate-checkpoint';
import {
  nextRecordOf,
  recordIterationCheckpoint,
  releasePendingRef,
  takeIterationCheckpoint,
  type TakenCheckpoint,
  withPendingRefSync,
} from '../checkpoints/iteration-checkpoint';
import { closeStep, iterateStep, type StepResult } from '../ledger/steps';
import type { LedgerStoreOps } from '../ledger/store';

/** Whether phase iterations take a checkpoint: no, yes, or not here (and why). */
export type WoCheckpoints = 'off' | 'on' | { skipped: string };

/**
 * A checkpoint is of the workspace around the ledger's root (what `checkpoint diff|restore
 * --root` later reads). It is the builds' work only when the root is in the code work tree.
 */
export function woCheckpoints(options: {
  root: string;
  worktree: string;
  checkpoint?: boolean;
}): WoCheckpoints {
  if (options.checkpoint === false) return 'off';
  const real = (p: string) => {
    try {
      return realpathSync(p);
    } catch {
      return resolve(p);
    }
  };
  const rel = relative(real(options.worktree), real(options.root));
  if (rel === '' || (!rel.startsWith('..') && !isAbsolute(rel))) return 'on';
  return {
    skipped: `the work orders build in ${options.worktree}, outside the ledger's root ${options.root}; checkpoints are taken of the root's workspace only`,
  };
}

/** The contract every work-order session opens under: a record of the attempt, not a rubric. */
function contractFor(): Record<string, unknown> {
  return {
    purpose: 'Build one work order of a task queue until its review and critique pass',
    owner: 'loop-ledger wo run',
    starting_state: 'work order dispatched at its checkpoint',
    inputs: ['the work-order file and its Files to touch'],
    expected_outputs: ['a committed change that passes review and critique'],
    success_criteria: ['review pass and critique not blocking'],
    failure_criteria: ['a HALT marker or a blocking critique'],
    dependencies: ['git'],
    // Three phase iterations per attempt; never let the ledger's own limit pre-empt the cap.
    iteration_limit: 9,
    timeout_behaviour: 'the agent is stopped and the attempt is judged from disk',
    escalation_path: 'a human inspects the HALT marker and clears it for a fresh run',
    quality_rubric: [
      {
        dimension: 'review-pass',
        evidence_command: 'true',
        baseline: 0,
        target: 1,
        weight: 100,
        failure_threshold: 0,
        direction: 'higher-is-better',
        hard_gate: false,
      },
    ],
  };
}

type Said = { exitCode: number; findings: { message: string }[] };

export class WoLedger {
  private contractPath: string | undefined;
  /** On a store: its writes, one after another, in the order the queue asked for them. */
  private queued: Promise<void> = Promise.resolve();
  private writes = 0;

  constructor(
    private readonly root: string,
    private readonly report: (line: string) => void,
    private readonly checkpoints: WoCheckpoints = 'off',
    /** A PostgreSQL store the sessions live in; undefined: the files under the root. */
    private readonly store?: LedgerStoreOps,
    /** Prefixes each store write's request id (the write's count follows). */
    private readonly requestBase = 'wo',
  ) {}

  /**
   * Waits for the store writes asked for so far (none on the files, which are written at once).
   * The queue never waits on the ledger as it goes, as it never stops for a ledger problem.
   */
  settled(): Promise<void> {
    return this.queued;
  }

  private reported(what: string, outcome: Said): boolean {
    if (outcome.exitCode === 0) return true;
    if (outcome.exitCode === EXIT.actionCompleted) return true; // resume: the phase is already on the ledger
    this.report(
      `wo-ledger ${what} exit=${outcome.exitCode} ${outcome.findings.map((f) => f.message).join('; ')}`,
    );
    return false;
  }

  /**
   * One store write of `step`, queued behind the others. `taken`: the checkpoint its iteration
   * carries, whose ref is made, when the write's turn comes, for the number the store then
   * expects (the steps of `iterate --checkpoint` on a store), and deleted after unless the record
   * took it.
   */
  private onStore(
    store: LedgerStoreOps,
    what: string,
    session: string,
    step: (ledger: Ledger | null, taken: TakenCheckpoint | null) => StepResult<unknown>,
    taken: TakenCheckpoint | null = null,
  ): void {
    this.writes += 1;
    const requestId = `${this.requestBase}.${this.writes}`;
    this.queued = this.queued.then(async () => {
      let held = taken;
      let recorded: unknown;
      try {
        if (held !== null && !('skipped' in held)) {
          const read = await store.load(session, 'summary');
          const next =
            read.payload === undefined ? null : nextRecordOf(read.payload.ledger, read.payload.count);
          held = withPendingRefSync(held, session, next);
        }
        const outcome = await store.update(session, requestId, (ledger) => step(ledger, held));
        recorded = outcome.payload;
        this.reported(what, outcome);
      } catch (error) {
        this.report(`wo-ledger ${what} failed: ${(error as Error).message}`);
      } finally {
        releasePendingRef(held, recorded as IterationRecord | undefined);
      }
    });
  }

  private contract(): string {
    if (!this.contractPath) {
      this.contractPath = join(this.root, '.loop', 'contracts', 'work-order-attempt.json');
      writeFileAtomicSync(this.contractPath, `${JSON.stringify(contractFor(), null, 2)}\n`);
    }
    return this.contractPath;
  }

  private guard(what: string, fn: () => { exitCode: number; findings: { message: string }[] }): boolean {
    try {
      const outcome = fn();
      if (outcome.exitCode === 0) return true;
      if (outcome.exitCode === EXIT.actionCompleted) return true; // resume: the phase is already on the ledger
      this.report(
        `wo-ledger ${what} exit=${outcome.exitCode} ${outcome.findings.map((f) => f.message).join('; ')}`,
      );
    } catch (error) {
      this.report(`wo-ledger ${what} failed: ${(error as Error).message}`);
    }
    return false;
  }

  private isOpen(session: string): boolean | undefined {
    try {
      return loadLedger(this.root, session).status === 'open';
    } catch {
      return undefined;
    }
  }

  /** A new attempt: close a crashed epoch still open, then open the next epoch. */
  dispatch(session: string, attempt: number, now: Date): void {
    const store = this.store;
    if (store !== undefined) {
      const crashed = closeStep({ outcome: 'stop', note: `crashed; re-dispatched as attempt ${attempt}` });
      this.onStore(store, `${session} close-crashed`, session, (ledger) =>
        ledger?.status === 'open' ? crashed(ledger) : { result: OK },
      );
      this.onStore(store, `${session} open`, session, this.openOnStore(session, now));
      return;
    }
    if (this.isOpen(session)) {
      this.guard(`${session} close-crashed`, () =>
        closeOp(this.root, session, {
          outcome: 'stop',
          note: `crashed; re-dispatched as attempt ${attempt}`,
        }),
      );
    }
    this.guard(`${session} open`, () => openOp(this.root, session, { contractPath: this.contract(), now }));
  }

  /** A resumed phase needs an open epoch; open one if the crash happened before it was. */
  ensureOpen(session: string, now: Date): void {
    const store = this.store;
    if (store !== undefined) {
      const open = this.openOnStore(session, now);
      this.onStore(store, `${session} open`, session, (ledger) =>
        ledger?.status === 'open' ? { result: OK } : open(ledger),
      );
      return;
    }
    if (this.isOpen(session) !== true)
      this.guard(`${session} open`, () => openOp(this.root, session, { contractPath: this.contract(), now }));
  }

  phase(
    session: string,
    attempt: number,
    phase: 'build' | 'review' | 'critique',
    now: Date,
    filesChanged: string[] = [],
  ): void {
    const input = {
      outcome: 'continue' as const,
      actions: [`${session}/a${attempt}/${phase}`],
      filesChanged,
      now,
    };
    const cp = this.checkpoints;
    const store = this.store;
    if (store !== undefined) {
      // The commit is taken now, of the workspace as the phase left it; its ref and the record
      // wait for the writes queued before this one.
      const taken =
        cp === 'off'
          ? null
          : cp === 'on'
            ? takeIterationCheckpoint(this.root, session, now, {}, () => null)
            : cp;
      this.onStore(store, `${session} ${phase}`, session, iterateOnStore(session, input), taken);
      return;
    }
    this.guard(`${session} ${phase}`, () =>
      cp === 'off'
        ? iterateOp(this.root, session, input)
        : iterateTakenOp(
            this.root,
            session,
            input,
            cp === 'on' ? takeIterationCheckpoint(this.root, session, now) : cp,
          ),
    );
  }

  close(
    session: string,
    outcome: LoopOutcome,
    fields: { blocker?: string; evidence?: string; next?: string; note?: string } = {},
  ): void {
    const input = {
      outcome,
      blocker: fields.blocker ?? null,
      evidence: fields.evidence ?? null,
      recommendedNext: fields.next ?? null,
      note: fields.note ?? null,
    };
    const store = this.store;
    if (store !== undefined) {
      const step = closeStep(input);
      this.onStore(store, `${session} close`, session, (ledger) =>
        ledger?.status === 'open' ? step(ledger) : { result: OK },
      );
      return;
    }
    if (this.isOpen(session) !== true) return;
    this.guard(`${session} close`, () => closeOp(this.root, session, input));
  }

  private openOnStore(session: string, now: Date): (ledger: Ledger | null) => StepResult<unknown> {
    return openStep(this.root, session, { contractPath: this.contract(), now });
  }
}

/** A step that writes nothing and reports success (the write was not needed). */
const OK: Said & { exitCode: 0 } = { exitCode: 0, findings: [] };

/** The phase's iteration, with its checkpoint (or why there is none) when one was taken. */
function iterateOnStore(
  session: string,
  input: EngineeringIterateInput,
): (ledger: Ledger | null, taken: TakenCheckpoint | null) => StepResult<unknown> {
  const step = iterateStep(input);
  return (ledger, taken) => {
    if (ledger === null)
      return {
        result: { exitCode: EXIT.usage, findings: [{ message: `${session}: no ledger (open one first)` }] },
      };
    const decided = step(ledger);
    if (decided.write === undefined || taken === null) return decided;
    const write = recordIterationCheckpoint(ledger, decided.write, taken, session);
    // The record as written (with its checkpoint key): what tells whether it took the ref.
    const record = write.iterations[write.iterations.length - 1];
    return { write, result: { ...decided.result, payload: record } };
  };
}
