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
import { openOp } from '../contract/operations';
import { loadLedger } from '../ledger/access';
import { closeOp, iterateOp } from '../ledger/operations';
import { iterateTakenOp } from '../checkpoints/iterate-checkpoint';
import { takeIterationCheckpoint } from '../checkpoints/iteration-checkpoint';

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

export class WoLedger {
  private contractPath: string | undefined;

  constructor(
    private readonly root: string,
    private readonly report: (line: string) => void,
    private readonly checkpoints: WoCheckpoints = 'off',
  ) {}

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
    if (this.isOpen(session) !== true) return;
    this.guard(`${session} close`, () =>
      closeOp(this.root, session, {
        outcome,
        blocker: fields.blocker ?? null,
        evidence: fields.evidence ?? null,
        recommendedNext: fields.next ?? null,
        note: fields.note ?? null,
      }),
    );
  }
}
