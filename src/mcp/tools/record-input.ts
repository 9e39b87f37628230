// Every field `loop-ledger iterate` takes, typed, in one place: the record tool's input schema
// and its mapping onto the operation's input. A field `iterate` gains is added here once (the
// schema) and in toIterateInput (its flag's value as the CLI passes it).
import { z } from 'zod';
import type { EngineeringIterateInput } from '../../engine/engineering/iterate';
import { CRITIC_VERDICTS, DECISIONS, OUTCOMES } from '../../engine/types';
import { session } from './fields';

const text = z.string().optional();
const texts = z.array(z.string()).optional();
const count = z.number().int().min(0).optional();

export const RECORD_INPUT = z.object({
  session,
  outcome: z.enum(OUTCOMES),
  actions: texts.describe('stable action ids completed'),
  error: text.describe('failure text'),
  state: text.describe('resulting state'),
  dependency_missing: text,
  measures: z.record(z.string(), z.number()).optional().describe('rubric dimension → value (all or none)'),
  files_changed: texts,
  commands_run: texts,
  evidence_paths: texts.describe('required with a verdict'),
  critic_verdict: z.enum(CRITIC_VERDICTS).optional(),
  critic_next: text,
  critic_brief: text.describe('pending brief id judged'),
  decision: z.enum(DECISIONS).optional(),
  blocker: text.describe('escalate'),
  evidence: text.describe('escalate'),
  recommended_next: text.describe('escalate'),
  note: text,
  spent: z
    .object({ calls: count, tokens: count, usd: z.number().min(0).optional(), ms: count })
    .optional()
    .describe('budget used (engineering loops)'),
  no_op: z.boolean().optional(),
  eligible_count: count,
  output_count: count,
  side_effects: count,
  termination: text.describe("provider's raw stop signal"),
});

export type RecordArgs = z.infer<typeof RECORD_INPUT>;

/** The paths the record names: each must stay under the root (checked before anything is written). */
export function recordPaths(args: RecordArgs): [string, string][] {
  return [
    ...(args.files_changed ?? []).map((p): [string, string] => ['files_changed', p]),
    ...(args.evidence_paths ?? []).map((p): [string, string] => ['evidence_paths', p]),
  ];
}

const orNull = (v: string | undefined): string | null => v ?? null;
const countText = (v: number | undefined): string | null => (v === undefined ? null : String(v));

/** The arguments as the CLI hands them to iterateOp (measures and spent as `KEY=VALUE` texts). */
export function toIterateInput(args: RecordArgs, now: Date): EngineeringIterateInput {
  return {
    outcome: args.outcome,
    blocker: orNull(args.blocker),
    evidence: orNull(args.evidence),
    recommendedNext: orNull(args.recommended_next),
    note: orNull(args.note),
    actions: args.actions ?? [],
    error: orNull(args.error),
    state: orNull(args.state),
    dependencyMissing: orNull(args.dependency_missing),
    measures: Object.entries(args.measures ?? {}).map(([k, v]) => `${k}=${v}`),
    filesChanged: args.files_changed ?? [],
    commandsRun: args.commands_run ?? [],
    evidencePaths: args.evidence_paths ?? [],
    criticVerdict: orNull(args.critic_verdict),
    criticNext: orNull(args.critic_next),
    criticBrief: orNull(args.critic_brief),
    decision: orNull(args.decision),
    spent: Object.entries(args.spent ?? {}).flatMap(([k, v]) => (v === undefined ? [] : [`${k}=${v}`])),
    noOp: args.no_op === true,
    eligibleCount: countText(args.eligible_count),
    outputCount: countText(args.output_count),
    sideEffects: countText(args.side_effects),
    termination: orNull(args.termination),
    now,
  };
}
