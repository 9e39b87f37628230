// The write tools: each is the CLI command's operation, called with the same input, under the
// store's lock. A refusal writes nothing (the operations decide before they write).
import { z } from 'zod';
import { openOp } from '../../app/contract/operations';
import { briefOp, closeOp, iterateOp, resumeOp } from '../../app/ledger/operations';
import { INPUT_LIMIT, readTextFile } from '../../app/read-input';
import { resumeContinuesRepeatNowAsync, resumeContinuesRepeatOnDisk } from '../../app/repeat/resume';
import type { BriefInput, BriefPacket } from '../../engine/brief';
import { OUTCOMES } from '../../engine/types';
import { readBriefChange } from '../../app/brief/change';
import { briefSummary } from '../brief-store';
import type { Outcome } from '../../app/outcome';
import { confinedPath } from '../confine';
import { driverLedgers, writeLedger } from '../ledger-access';
import { compact } from '../paging';
import { defineTool, fromOutcome, refused, write, type Tool } from '../tool';
import { badSession, payload, session } from './fields';
import { RECORD_INPUT, recordPaths, toIterateInput } from './record-input';

const openLoop = defineTool({
  name: 'open_loop',
  title: 'Open loop',
  description: 'Open a loop under a contract; a closed one re-opens as a new epoch, force discards it.',
  input: z.object({
    session,
    contract: z.string().optional().describe('work-loop contract path'),
    engineering: z.string().optional().describe('loop-engineering contract path'),
    stall_threshold: z.number().int().optional(),
    force: z.boolean().optional(),
    baseline_evidence: z.record(z.string(), z.string()).optional().describe('dimension → transcript path'),
  }),
  output: payload({ session: z.string(), epoch: z.number(), next_iteration: z.number() }),
  annotations: write(true, false),
  async handle(args, ctx) {
    const bad = badSession(args.session);
    if (bad) return bad;
    if (args.contract === undefined && args.engineering === undefined)
      return refused(2, ['contract: required (or engineering with a loop-engineering contract)']);
    const input = {
      contractPath: args.contract === undefined ? null : confinedPath(ctx.root, args.contract, 'contract'),
      engineeringPath:
        args.engineering === undefined ? null : confinedPath(ctx.root, args.engineering, 'engineering'),
      stallThreshold: args.stall_threshold,
      force: args.force === true,
      baselineEvidence: Object.entries(args.baseline_evidence ?? {}).map(
        ([dim, path]) => `${dim}=${confinedPath(ctx.root, path, `baseline_evidence.${dim}`)}`,
      ),
      now: ctx.now(),
    };
    const outcome = await writeLedger(
      ctx,
      (store) => store.open(args.session, input),
      (lock) => openOp(ctx.root, args.session, input, lock),
    );
    const notes = outcome.findings.map((f) => f.message);
    return fromOutcome(outcome, (p) => ({ ...p, ...(notes.length ? { notes } : {}) }));
  },
});

const recordIteration = defineTool({
  name: 'record_iteration',
  title: 'Record iteration',
  description: 'Record one iteration with exactly one outcome (as `iterate`); a refusal writes nothing.',
  input: RECORD_INPUT,
  output: payload({ n: z.number(), outcome: z.string(), stall: z.string().nullable() }),
  annotations: write(false, false),
  async handle(args, ctx) {
    const bad = badSession(args.session);
    if (bad) return bad;
    for (const [field, path] of recordPaths(args)) confinedPath(ctx.root, path, field);
    const input = toIterateInput(args, ctx.now());
    const outcome = await writeLedger(
      ctx,
      (store) => store.iterate(args.session, input),
      (lock) => iterateOp(ctx.root, args.session, input, lock),
    );
    return fromOutcome(outcome, (r) => compact(r) as Record<string, unknown>);
  },
});

const assembleBrief = defineTool({
  name: 'assemble_brief',
  title: 'Assemble brief',
  description: 'Build the critic packet from a git range or a diff file and arm it as the pending brief.',
  input: z.object({
    session,
    git_range: z.string().optional().describe('A..B'),
    diff_file: z.string().optional(),
    change_scope_file: z.string().optional().describe('git --stat of diff_file'),
    verification_file: z.string().optional(),
    verification: z.string().optional().describe('verification output text'),
  }),
  output: payload({ brief_id: z.string(), uri: z.string(), scope: z.string() }),
  annotations: write(false, false),
  async handle(args, ctx) {
    const bad = badSession(args.session);
    if (bad) return bad;
    if ((args.git_range === undefined) === (args.diff_file === undefined))
      return refused(2, ['git_range, diff_file: give exactly one']);
    if ((args.verification === undefined) === (args.verification_file === undefined))
      return refused(2, ['verification, verification_file: give exactly one']);
    if (args.git_range !== undefined && args.change_scope_file !== undefined)
      return refused(2, ['change_scope_file: only with diff_file (git gives a range its own --stat)']);
    const verification: BriefInput =
      args.verification !== undefined
        ? { path: 'verification', text: args.verification }
        : readTextFile(
            confinedPath(ctx.root, args.verification_file as string, 'verification_file'),
            INPUT_LIMIT,
          );
    let diff: BriefInput;
    let changeScope: BriefInput | undefined;
    if (args.git_range !== undefined) {
      const range = args.git_range.trim();
      const read = await readBriefChange(ctx.root, { kind: 'range', range });
      if ('refused' in read) return refused(2, [`git_range: ${read.refused}`]);
      if ('failed' in read) return refused(8, [`git_range: ${read.failed}`]);
      const texts = read.texts;
      diff = { path: `git diff (${range})`, text: texts.diff };
      changeScope = { path: `git --stat (${range})`, text: texts.stat };
    } else {
      diff = readTextFile(confinedPath(ctx.root, args.diff_file as string, 'diff_file'), INPUT_LIMIT);
      if (args.change_scope_file !== undefined)
        changeScope = readTextFile(
          confinedPath(ctx.root, args.change_scope_file, 'change_scope_file'),
          INPUT_LIMIT,
        );
    }
    const input = { diff, verification, changeScope };
    const outcome = await writeLedger(
      ctx,
      // A diff given as text comes back as text (only the CLI's byte input is kept in chunks).
      (store) => store.brief(args.session, input) as Promise<Outcome<BriefPacket>>,
      (lock) => briefOp(ctx.root, args.session, input, lock),
    );
    return fromOutcome(outcome, (packet) => {
      ctx.briefs.put(args.session, packet);
      const summary = briefSummary(args.session, packet, true);
      return { ...summary, scope: summary.scope };
    });
  },
});

const resumeLoop = defineTool({
  name: 'resume_loop',
  title: 'Resume loop',
  description:
    'Re-enter a paused loop (an open one is reported as it is): completed actions, next iteration.',
  input: z.object({ session }),
  output: payload({ session: z.string(), status: z.string(), next_iteration: z.number() }),
  annotations: write(false, true),
  async handle(args, ctx) {
    const bad = badSession(args.session);
    if (bad) return bad;
    // Continuing an unfinished repeat runs its step command: the CLI does that, this server does not.
    const ledgers = driverLedgers(ctx);
    const continuesRepeat = ledgers
      ? await resumeContinuesRepeatNowAsync(ctx.root, args.session, ledgers)
      : resumeContinuesRepeatOnDisk(ctx.root, args.session);
    if (continuesRepeat)
      return refused(2, [
        `${args.session}: its repeat is unfinished; resuming it runs commands: use \`loop-ledger resume --session ${args.session}\``,
      ]);
    const outcome = await writeLedger(
      ctx,
      (store) => store.resume(args.session),
      (lock) => resumeOp(ctx.root, args.session, lock),
    );
    return fromOutcome(outcome, (p) => ({
      session: p.session,
      status: p.status,
      next_iteration: p.next_iteration,
      resumed: p.resumed,
      purpose: compact(p.contract.purpose),
      completed_actions: compact(p.completed_actions),
      completed_actions_count: p.completed_actions.length,
    }));
  },
});

const closeLoop = defineTool({
  name: 'close_loop',
  title: 'Close loop',
  description: 'End an open loop with a terminal outcome, without recording an iteration.',
  input: z.object({
    session,
    outcome: z.enum(OUTCOMES),
    blocker: z.string().optional(),
    evidence: z.string().optional(),
    recommended_next: z.string().optional(),
    note: z.string().optional(),
  }),
  output: payload({ session: z.string(), status: z.string(), final_outcome: z.string() }),
  annotations: write(false, false),
  async handle(args, ctx) {
    const bad = badSession(args.session);
    if (bad) return bad;
    const input = {
      outcome: args.outcome,
      blocker: args.blocker ?? null,
      evidence: args.evidence ?? null,
      recommendedNext: args.recommended_next ?? null,
      note: args.note ?? null,
    };
    const outcome = await writeLedger(
      ctx,
      (store) => store.close(args.session, input),
      (lock) => closeOp(ctx.root, args.session, input, lock),
    );
    return fromOutcome(outcome, (p) => ({ ...p }));
  },
});

export const WRITE_TOOLS: Tool[] = [openLoop, recordIteration, assembleBrief, resumeLoop, closeLoop];
