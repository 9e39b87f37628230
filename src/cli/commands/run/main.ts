// `loop-ledger run` (loaded on demand by ../run.ts): the bounded agent harness, drop-in for the original `loop.py` (and, with
// --node, for its DAG node runner). Parses its own argv (argparse conventions, see args.ts).
import { readBoundedText } from '../../../store/bounded-read';
import { resolve } from 'node:path';
import { CONTRACT_LIMIT, readTextFile } from '../../../app/read-input';
import { runOp } from '../../../app/run/operation';
import { readNodeSpec, NodeSpecError, infrastructureResult } from '../../../engine/run/node-spec';
import type { FinalReceipt } from '../../../engine/run/receipt';
import { runNode } from '../../../app/run/node';
import { sortKeysDeep } from '../../../engine/ledger-view';
import { printFindings, printLine } from '../../output';
import { UsageError } from '../../usage-error';
import { parseRunArgs, RUN_USAGE } from './args';
import { storeLedgers } from '../../../app/ledger/session-ledgers';
import { handDownStoreFlags, rawRequestBase, rawStore } from '../../raw-store';

/** Exit code of a cancelled run (128 + SIGINT), as a shell reports an interrupted command. */
export const CANCELLED_EXIT = 130;

/** The receipt in the original's printed key order (the file itself has sorted keys). */
function printedReceipt(r: FinalReceipt): Record<string, unknown> {
  return {
    schema: r.schema,
    run_id: r.run_id,
    objective: r.objective,
    final_verdict: r.final_verdict,
    stop_reason: r.stop_reason,
    attempts_used: r.attempts_used,
    max_attempts: r.max_attempts,
    allowed_globs: r.allowed_globs,
    changed_files: r.changed_files,
    checks: r.checks,
    reviewer: r.reviewer,
    artifacts: r.artifacts,
  };
}

function json(value: unknown, sort = false): string {
  return JSON.stringify(sort ? sortKeysDeep(value) : value, null, 2);
}

/** SIGINT/SIGTERM cancel the run: process groups killed, cancelled.json written, `pause` recorded. */
function cancelOnSignals(): { signal: AbortSignal; dispose: () => void } {
  const controller = new AbortController();
  const onSignal = () => controller.abort();
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);
  return {
    signal: controller.signal,
    dispose: () => {
      process.off('SIGINT', onSignal);
      process.off('SIGTERM', onSignal);
    },
  };
}

async function nodeMain(file: string, repo: string, printJsonFlag: boolean): Promise<number> {
  let spec;
  try {
    spec = readNodeSpec(JSON.parse(readBoundedText(file)) as unknown);
  } catch (error) {
    const reason =
      error instanceof NodeSpecError
        ? error.message
        : `could not read node JSON: ${(error as Error).message}`;
    printLine(json(infrastructureResult('unknown', reason, null), true));
    return 2;
  }
  const cancel = cancelOnSignals();
  try {
    const { result, exitCode } = await runNode(
      spec,
      repo,
      { node: process.execPath, script: process.argv[1] as string },
      process.env,
      cancel.signal,
    );
    const infrastructure = result.stop_reason === 'INFRASTRUCTURE_FAILURE';
    printLine(
      json(
        printJsonFlag || infrastructure ? result : { node_id: result.node_id, status: result.status },
        true,
      ),
    );
    return exitCode;
  } finally {
    cancel.dispose();
  }
}

export async function main(argv: string[]): Promise<number> {
  const args = parseRunArgs(argv);
  if (args.help) {
    printLine(RUN_USAGE);
    return 0;
  }
  const root = resolve(args.root ?? args.repo ?? '.');
  const storeFlags = { store: args.store, project: args.project };
  if (args.node !== undefined) {
    // The node's own `loop-ledger run` child records where this one would: the flags are checked
    // here (a malformed URL is this command's usage error) and handed down to it.
    await rawStore(root, storeFlags)?.end();
    handDownStoreFlags(storeFlags);
    return nodeMain(args.node, root, args.printJson);
  }

  let objective = args.objective;
  if (objective === undefined) {
    // Read as the work-loop commands read their inputs: any kind of file (`/dev/stdin`, `<(…)`, a
    // named FIFO), as the original harness accepted, but capped, and a FIFO nobody writes to is
    // refused after the FIFO wait instead of hanging the run.
    const read = readTextFile(args.objectiveFile as string, CONTRACT_LIMIT);
    if ('error' in read) throw new UsageError(`--objective-file ${args.objectiveFile}: ${read.error}`);
    objective = read.text.trim();
  }
  const store = rawStore(root, storeFlags);
  handDownStoreFlags(storeFlags);
  const cancel = cancelOnSignals();
  try {
    const result = await runOp({
      ledgers: store ? storeLedgers(store, rawRequestBase()) : undefined,
      root,
      objective,
      agentConfig: args.agentConfig as string,
      allow: args.allow,
      checks: args.check,
      maxAttempts: args.maxAttempts,
      checkTimeout: args.checkTimeout,
      runRoot: args.runRoot,
      requireClean: args.requireClean,
      checkpoint: !args.noCheckpoint,
      session: args.session,
      python: process.env.LOOP_LEDGER_PYTHON,
      env: process.env,
      now: () => new Date(),
      signal: cancel.signal,
    });
    if (result.kind === 'refused') {
      printFindings([...result.notes, ...result.findings].map((message) => ({ message })));
      return result.exitCode;
    }
    if (result.kind === 'cancelled') {
      printLine(
        json({
          cancelled: true,
          run_dir: result.runDir,
          session: result.session,
          attempt: result.attempt,
          phase: result.phase,
        }),
      );
      printFindings([
        {
          message: `loop-ledger run: cancelled during ${result.phase}; re-run with --session ${result.session} to continue`,
        },
      ]);
      return CANCELLED_EXIT;
    }
    const receipt = result.receipt;
    if (result.warnings.length > 0) printFindings(result.warnings.map((message) => ({ message })));
    printLine(
      json(
        args.printJson
          ? printedReceipt(receipt)
          : { final_verdict: receipt.final_verdict, run_dir: receipt.artifacts.run_dir },
      ),
    );
    return result.exitCode;
  } finally {
    cancel.dispose();
    await store?.end();
  }
}
