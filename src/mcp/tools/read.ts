// The read tools: nothing here writes. Each pages or compacts so no answer outgrows a client's
// context, whatever the ledger's size.
import { z } from 'zod';
import { loadLedger } from '../../app/ledger/access';
import { ledgerFile, operation, type Outcome } from '../../app/outcome';
import { listOp, scoreOp, statusOp } from '../../app/ledger/operations';
import { validateFileOp } from '../../app/contract/validate-file';
import type { IterationRecord, Ledger } from '../../engine/types';
import { briefSummary } from '../brief-store';
import { confinedPath } from '../confine';
import { readLedger } from '../ledger-access';
import { compact, fitPage } from '../paging';
import { defineTool, fromOutcome, READ, refused, type Tool } from '../tool';
import { badSession, cursor, limit, payload, session } from './fields';

const listSessions = defineTool({
  name: 'list_sessions',
  title: 'List sessions',
  description: 'Sessions under the root, by id: status, epoch, iterations, last outcome.',
  input: z.object({ limit: limit(200, 50), cursor }),
  output: z.object({
    sessions: z.array(payload({ session: z.string() })),
    next_cursor: z.string().nullable(),
  }),
  annotations: READ,
  async handle({ limit: size, cursor: after }, ctx) {
    const listed = await readLedger(
      ctx,
      (store) => store.list(),
      () => listOp(ctx.root),
    );
    return fromOutcome(listed, ({ sessions }) => {
      const rows = sessions
        .filter((s) => after === undefined || s.session > after)
        .map((s) =>
          compact({
            session: s.session,
            status: s.status,
            final_outcome: s.final_outcome,
            epoch: s.epoch,
            iterations: s.iterations,
            last_outcome: s.last_outcome,
            ...(s.legacy ? { legacy: true } : {}),
            ...(s.error ? { error: s.error } : {}),
          }),
        ) as { session: string }[];
      const page = fitPage(rows, size);
      const more = page.length < rows.length;
      return { sessions: page, next_cursor: more ? (page.at(-1)?.session ?? null) : null };
    });
  },
});

const sessionStatus = defineTool({
  name: 'session_status',
  title: 'Session status',
  description: 'One loop: status, epoch, counts, stalls, newest judged quality (exit_code 4: no iterations).',
  input: z.object({ session }),
  output: payload({ exit_code: z.number(), session: z.string(), status: z.string(), iterations: z.number() }),
  annotations: READ,
  async handle(args, ctx) {
    const bad = badSession(args.session);
    if (bad) return bad;
    return fromOutcome(
      await readLedger(
        ctx,
        (store) => store.status(args.session),
        () => statusOp(ctx.root, args.session),
      ),
      (p) => ({ ...(compact(p) as object), completed_actions_count: p.completed_actions.length }),
      [4],
    );
  },
});

const RECORD_KEYS = [
  'n',
  'timestamp',
  'epoch',
  'reported_outcome',
  'outcome',
  'stall',
  'error_signature',
  'state_hash',
  'dependency_missing',
  'actions',
  'baseline',
  'measurements',
  'evaluation',
  'files_changed',
  'commands_run',
  'evidence_paths',
  'critic_verdict',
  'critic_next',
  'critic_brief',
  'decision',
  'blocker',
  'evidence',
  'recommended_next',
  'note',
] as const satisfies readonly (keyof IterationRecord)[];

const DEFAULT_FIELDS: (typeof RECORD_KEYS)[number][] = [
  'n',
  'epoch',
  'timestamp',
  'outcome',
  'stall',
  'actions',
  'critic_verdict',
  'decision',
  'note',
];

const listIterations = defineTool({
  name: 'list_iterations',
  title: 'List iterations',
  description: 'A session’s iteration records, newest first, paged by iteration number.',
  input: z.object({
    session,
    limit: limit(500, 20),
    cursor,
    fields: z
      .array(z.enum(RECORD_KEYS))
      .optional()
      .describe(`default ${DEFAULT_FIELDS.join(',')}`),
  }),
  output: z.object({
    total: z.number(),
    iterations: z.array(payload({ n: z.number() })),
    next_cursor: z.string().nullable(),
  }),
  annotations: READ,
  async handle(args, ctx) {
    const bad = badSession(args.session);
    if (bad) return bad;
    let before = Infinity;
    if (args.cursor !== undefined) {
      before = Number(args.cursor);
      if (!/^\d+$/.test(args.cursor))
        return refused(2, [`cursor: ${JSON.stringify(args.cursor)} is not a cursor from this tool`]);
    }
    const fields = new Set<string>(['n', ...(args.fields ?? DEFAULT_FIELDS)]);
    const outcome = await readLedger(
      ctx,
      async (store) => {
        const loaded = await store.load(args.session, 'all');
        return { ...loaded, payload: loaded.payload?.ledger };
      },
      () => operation(ledgerFile(ctx.root, args.session), () => ledgerOutcome(ctx.root, args.session)),
    );
    return fromOutcome(outcome, ({ iterations: records }) => {
      // Newest first, and only what the page can hold: never the whole ledger copied.
      const rows: { n: number }[] = [];
      for (let i = records.length - 1; i >= 0 && rows.length <= args.limit; i--) {
        const record = records[i] as IterationRecord;
        if (record.n >= before) continue;
        const row = Object.fromEntries(
          Object.entries(record).filter(([key]) => fields.has(key)),
        ) as unknown as { n: number };
        rows.push(compact(row) as { n: number });
      }
      const page = fitPage(rows, args.limit);
      const more = page.length < rows.length;
      return { total: records.length, iterations: page, next_cursor: more ? String(page.at(-1)?.n) : null };
    });
  },
});

const briefSummaryTool = defineTool({
  name: 'brief_summary',
  title: 'Brief summary',
  description: 'A brief packet’s summary (by brief_id, or the session’s pending one); the packet is its uri.',
  input: z.object({ session, brief_id: z.string().optional() }),
  output: payload({ session: z.string(), brief_id: z.string().nullable(), available: z.boolean() }),
  annotations: READ,
  async handle(args, ctx) {
    const bad = badSession(args.session);
    if (bad) return bad;
    // On a store, the packet may have been assembled on another machine: the store keeps it.
    const outcome = await readLedger(
      ctx,
      (store) => store.storedBrief(args.session, args.brief_id ?? null),
      () =>
        operation(ledgerFile(ctx.root, args.session), () => ({
          exitCode: 0,
          payload: {
            pending: loadLedger(ctx.root, args.session).pending_brief?.brief_id ?? null,
            packet: null,
          },
          findings: [],
        })),
    );
    return fromOutcome(outcome, ({ pending, packet }) => {
      const id = args.brief_id ?? pending;
      const kept = id === null ? undefined : ctx.briefs.get(id);
      const stored =
        kept ?? (packet !== null && packet.brief_id === id ? { session: args.session, packet } : undefined);
      if (stored === undefined || stored.session !== args.session)
        return {
          session: args.session,
          brief_id: id,
          pending: id !== null && id === pending,
          available: false,
        };
      return { available: true, ...briefSummary(args.session, stored.packet, id === pending) };
    });
  },
});

const validateContract = defineTool({
  name: 'validate_contract',
  title: 'Validate contract',
  description: 'Check a work-loop or loop-engineering contract (or a run receipt) without opening a loop.',
  input: z.object({ path: z.string().describe('file under the root'), strict: z.boolean().optional() }),
  output: z.object({
    kind: z.string(),
    valid: z.boolean(),
    exit_code: z.number(),
    findings: z.array(z.string()),
  }),
  annotations: READ,
  handle(args, ctx) {
    const file = confinedPath(ctx.root, args.path, 'path');
    const validated = validateFileOp(ctx.root, file, args.strict === true);
    if (validated.kind === 'receipt') {
      const p = validated.payload;
      return {
        ok: true,
        data: { kind: p.kind, valid: p.valid, exit_code: p.valid ? 0 : 1, findings: cap(p.findings) },
      };
    }
    const outcome = validated.outcome;
    if (outcome.exitCode > 1) return refused(outcome.exitCode, outcome.findings);
    return {
      ok: true,
      data: {
        kind: validated.kind === 'engineering' ? 'loop-engineering' : 'work-loop',
        valid: outcome.exitCode === 0,
        exit_code: outcome.exitCode,
        findings: cap(outcome.findings.map((f) => f.message)),
      },
    };
  },
});

function ledgerOutcome(root: string, session: string): Outcome<Ledger> {
  return { exitCode: 0, payload: loadLedger(root, session), findings: [] };
}

/** At most 200 findings, each compacted: a broken contract cannot flood the client. */
function cap(findings: string[]): string[] {
  return compact(findings.slice(0, 200)) as string[];
}

const score = defineTool({
  name: 'score',
  title: 'Score measurements',
  description:
    'Score one measurement per rubric dimension; writes nothing (exit_code 6: a hard gate breached).',
  input: z.object({ session, measures: z.record(z.string(), z.number()).describe('dimension → value') }),
  output: payload({ exit_code: z.number(), verdict: z.string(), weighted_total: z.number() }),
  annotations: READ,
  async handle(args, ctx) {
    const bad = badSession(args.session);
    if (bad) return bad;
    const measures = Object.entries(args.measures).map(([k, v]) => `${k}=${v}`);
    return fromOutcome(
      await readLedger(
        ctx,
        (store) => store.score(args.session, measures),
        () => scoreOp(ctx.root, args.session, measures),
      ),
      (p) => compact(p) as Record<string, unknown>,
      [6],
    );
  },
});

export const READ_TOOLS: Tool[] = [
  listSessions,
  sessionStatus,
  listIterations,
  briefSummaryTool,
  validateContract,
  score,
];
