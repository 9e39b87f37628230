// Writes the V8 code caches the CLI launcher starts from (src/cli/launch.ts). A training run:
// each everyday command runs once, in a scratch workspace, with LOOP_LEDGER_WRITE_CODE_CACHE=1,
// and each run rewrites the cache of the bundle it ran (the command's own,
// dist/cli-cmd/<name>.cache, or the full bundle's, dist/cli-main.cache) from the one before it
// plus the functions it compiled itself. So a cache holds the bytecode of what an agent's loop
// really runs, not only the bundle's top level. The cache is an optimisation: the CLI works the
// same without it (and without it under any other Node/V8 version).
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const contract = {
  purpose: 'Train the code cache',
  owner: 'build',
  starting_state: 'nothing measured',
  inputs: ['src'],
  expected_outputs: ['a cache'],
  success_criteria: ['coverage >= 80%'],
  failure_criteria: ['a command fails'],
  dependencies: ['node'],
  iteration_limit: 50,
  timeout_behaviour: 'record pause and stop',
  escalation_path: 'the build log',
  quality_rubric: [
    {
      dimension: 'coverage',
      evidence_command: 'echo 61',
      baseline: 61,
      target: 80,
      weight: 100,
      failure_threshold: 55,
      direction: 'higher-is-better',
      hard_gate: true,
    },
  ],
};

const diff = `diff --git a/src/a.ts b/src/a.ts
index 1111111..2222222 100644
--- a/src/a.ts
+++ b/src/a.ts
@@ -1,2 +1,2 @@
-export const a = 1;
+export const a = 2;
`;

/** Runs the training; `cli` is dist/cli.js. Throws when a command fails outright. */
export function writeCliCodeCache(cli) {
  const work = mkdtempSync(join(tmpdir(), 'loop-ledger-code-cache-'));
  try {
    const contractPath = join(work, 'contract.json');
    writeFileSync(contractPath, JSON.stringify(contract, null, 2));
    const diffPath = join(work, 'change.diff');
    writeFileSync(diffPath, diff);
    const verification = join(work, 'verification.txt');
    writeFileSync(verification, '12 passing\n');
    const at = ['--root', work, '--session', 's'];
    const steps = [
      [['validate', '--root', work, contractPath, '--json'], 0],
      [['open', ...at, '--contract', contractPath, '--json'], 0],
      [['iterate', ...at, '--json', '--outcome', 'continue', '--action', 'a1'], 0],
      [['brief', ...at, '--json', '--diff-file', diffPath, '--verification-file', verification], 0],
      [['iterate', ...at, '--outcome', 'continue', '--measure', 'coverage=70', '--action', 'a2'], 0],
      [['score', ...at, '--json', '--measure', 'coverage=72'], 0],
      [['status', ...at, '--json'], 0],
      [['status', ...at], 0],
      [['close', ...at, '--json', '--outcome', 'pause', '--note', 'train'], 0],
      [['resume', ...at, '--json'], 0],
      [['list', '--root', work, '--json'], 0],
      [['checkpoint', 'list', ...at, '--json'], 0],
      // Its own bundle too; it needs a PostgreSQL server to do anything more.
      [['store', '--help'], 0],
      // What the full bundle (dist/cli-main.js) still answers: help, version, the drop-in commands.
      [['--help'], 0],
      [['--version'], 0],
      [['wo', '--help'], 0],
    ];
    const env = { ...process.env, LOOP_LEDGER_WRITE_CODE_CACHE: '1' };
    delete env.NODE_OPTIONS;
    // Training runs on the files under `work`, whatever store the builder's shell selects.
    delete env.LOOP_LEDGER_STORE;
    for (const [args, expected] of steps) {
      const r = spawnSync(process.execPath, [cli, ...args], { env, encoding: 'utf8' });
      if (r.status !== expected) {
        throw new Error(`code cache training: loop-ledger ${args[0]} exited ${r.status}: ${r.stderr}`);
      }
    }
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}
