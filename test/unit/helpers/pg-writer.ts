// One writer of the PostgreSQL load test, as a process of its own: it records many iterations
// one after another through what `loop-ledger iterate` runs — the command's own flag parsing
// and input building (src/cli/commands/iterate.ts) over the shipped store bundle (dist/pg.js),
// one transaction and one request id per write — without a process start per iteration, so a
// test can run the full size (4 machines × 8 writers × 200) in CI time.
//
// argv: a JSON object { url, project, root, sessions, prefix, count }. Iteration i writes to
// sessions[i % sessions.length] with action id and request id `<prefix>-i<i>`. Prints one JSON
// line per write ({ action, session, code, n }) and exits 0 when every write exited 0.
import { join, resolve } from 'node:path';
import { parseCommand } from '../../../src/cli/args';
import { run, spec } from '../../../src/cli/commands/iterate';

interface WriterPlan {
  url: string;
  project: string;
  root: string;
  sessions: string[];
  prefix: string;
  count: number;
}

/** Tests are bundled one per file: the repository root is above out/test. */
const REPO = resolve(__dirname.slice(0, __dirname.lastIndexOf('/out/test')));

async function main(): Promise<number> {
  const plan = JSON.parse(process.argv[2] ?? '{}') as WriterPlan;
  // The bundle the CLI requires when a store is selected (src/cli/store-select.ts).
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const bundle = require(join(REPO, 'dist', 'pg.js')) as typeof import('../../../src/app/ledger/pg-store');
  const store = bundle.createPgStore({
    url: plan.url,
    project: plan.project,
    root: plan.root,
    requestId: `${plan.prefix}-setup`,
    retryMs: Number(process.env.LOOP_LEDGER_STORE_RETRY_MS ?? 15_000),
  });
  let failed = 0;
  try {
    for (let i = 0; i < plan.count; i += 1) {
      const session = plan.sessions[i % plan.sessions.length] as string;
      const action = `${plan.prefix}-i${i}`;
      const argv = ['--session', session, '--outcome', 'continue', '--action', action, '--json'];
      const { flags } = parseCommand(spec, argv);
      const ctx = { root: plan.root, json: true, now: new Date(), store: store.withRequestId(action) };
      const outcome = await run(flags, ctx);
      const n = (outcome.payload as { n?: number } | undefined)?.n ?? null;
      if (outcome.exitCode !== 0) failed += 1;
      process.stdout.write(`${JSON.stringify({ action, session, code: outcome.exitCode, n })}\n`);
      if (outcome.exitCode !== 0) process.stderr.write(`${action}: ${JSON.stringify(outcome.findings)}\n`);
    }
  } finally {
    await store.end();
  }
  return failed === 0 ? 0 : 1;
}

main().then(
  (code) => (process.exitCode = code),
  (error: unknown) => {
    process.stderr.write(`${String((error as Error)?.stack ?? error)}\n`);
    process.exitCode = 70;
  },
);
