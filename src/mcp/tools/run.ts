// `run_loop`, offered only when the server is started with --allow-run: the bounded harness (the
// CLI's `run`, the same runOp) on a session that already has a contract. The client names no
// command: the checks are the contract's own rubric evidence commands (a client may pick some of
// them, word for word, never add one), and the agent config is a TOML file under the root.
import { z } from 'zod';
import { driverLedgers, readLedger } from '../ledger-access';
import { loadLedger } from '../../app/ledger/access';
import { ledgerFile, operation } from '../../app/outcome';
import { runOp } from '../../app/run/operation';
import { confinedPath } from '../confine';
import { defineTool, refused, type Tool } from '../tool';
import { badSession, payload, session } from './fields';

/** Exit code of a cancelled run, as the CLI's (128 + SIGINT). */
const CANCELLED_EXIT = 130;

const strings = (value: unknown): string[] =>
  Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string' && v.trim() !== '') : [];

const runLoop = defineTool({
  name: 'run_loop',
  title: 'Run loop',
  description:
    "Run the agent harness on a session with its contract's own checks (rubric evidence commands).",
  input: z.object({
    session,
    agent_config: z.string().describe('agents TOML path under the root'),
    checks: z.array(z.string()).optional().describe('subset of the rubric evidence commands (default all)'),
    objective: z.string().optional().describe('default: the contract purpose'),
    allow: z.array(z.string()).optional().describe('globs the coder may change (default: expected outputs)'),
    max_attempts: z.number().int().min(1).max(20).optional(),
  }),
  output: payload({ exit_code: z.number(), final_verdict: z.string(), run_dir: z.string() }),
  annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: true },
  async handle(args, ctx, call) {
    const bad = badSession(args.session);
    if (bad) return bad;
    const agentConfig = confinedPath(ctx.root, args.agent_config, 'agent_config');
    if (!agentConfig.endsWith('.toml')) return refused(2, ['agent_config: must be a .toml agent config']);
    const read = await readLedger(
      ctx,
      async (store) => {
        const loaded = await store.load(args.session, 'summary');
        if (loaded.payload === undefined) return { exitCode: loaded.exitCode, findings: loaded.findings };
        return { exitCode: 0, payload: loaded.payload.ledger.contract, findings: [] };
      },
      () =>
        operation(ledgerFile(ctx.root, args.session), () => ({
          exitCode: 0,
          payload: loadLedger(ctx.root, args.session).contract,
          findings: [],
        })),
    );
    if (read.payload === undefined) return refused(read.exitCode, read.findings);
    const contract = read.payload as unknown as Record<string, unknown>;
    const rubric = Array.isArray(contract.quality_rubric) ? contract.quality_rubric : [];
    const own = strings(rubric.map((r: { evidence_command?: unknown }) => r?.evidence_command));
    const foreign = (args.checks ?? []).filter((c) => !own.includes(c));
    if (foreign.length > 0)
      return refused(2, [
        `checks: ${JSON.stringify(foreign[0]?.slice(0, 200))} is not an evidence command of ${args.session}'s contract`,
      ]);
    const objective = args.objective ?? (typeof contract.purpose === 'string' ? contract.purpose : '');
    const limit = typeof contract.iteration_limit === 'number' ? contract.iteration_limit : 3;
    const result = await runOp({
      // On a store: the ledger there (each write with a request id of its own), the run folder here.
      ledgers: driverLedgers(ctx),
      root: ctx.root,
      objective,
      agentConfig,
      allow: args.allow ?? strings(contract.expected_outputs),
      checks: args.checks ?? own,
      maxAttempts: args.max_attempts ?? Math.min(limit, 3),
      checkTimeout: 300,
      runRoot: '.loop/runs',
      requireClean: true,
      session: args.session,
      python: process.env.LOOP_LEDGER_PYTHON,
      env: process.env,
      now: ctx.now,
      signal: call?.signal,
    });
    if (result.kind === 'refused') return refused(result.exitCode, [...result.notes, ...result.findings]);
    if (result.kind === 'cancelled')
      return refused(CANCELLED_EXIT, [
        `cancelled during ${result.phase}; run_loop on ${result.session} again to continue (${result.runDir})`,
      ]);
    const r = result.receipt;
    return {
      ok: true,
      data: {
        exit_code: result.exitCode,
        final_verdict: r.final_verdict,
        stop_reason: r.stop_reason,
        attempts_used: r.attempts_used,
        run_dir: result.runDir,
        session: result.session,
        resumed: result.resumed,
        ...(result.warnings.length > 0 ? { warnings: result.warnings.slice(0, 20) } : {}),
      },
    };
  },
});

/** The tools only `loop-ledger mcp --allow-run` offers. */
export const RUN_TOOLS: Tool[] = [runLoop];
