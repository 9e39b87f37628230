// The repository run_loop's tests run the harness in: the sample target, the fake agents, and a
// contract whose one evidence command is CHECK (shared by the files and the PostgreSQL tests).
import { spawnSync } from 'node:child_process';
import { copyFileSync } from 'node:fs';
import { join } from 'node:path';
import { sampleContract, writeJson } from '../helpers/cli';
import { FIXTURES, sampleRepo } from '../run/helpers';

export const CHECK = 'node sample-target/tests/check.mjs';

function git(repo: string, ...args: string[]): void {
  const r = spawnSync('git', args, { cwd: repo, encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`git ${args.join(' ')}: ${r.stderr}`);
}

/** The sample repository with the fake agents and a contract whose one evidence command is CHECK. */
export function repoWithContract(): string {
  const repo = sampleRepo();
  copyFileSync(join(FIXTURES, 'agents.toml'), join(repo, 'agents.toml'));
  copyFileSync(join(FIXTURES, 'agent.mjs'), join(repo, 'agent.mjs'));
  writeJson(
    join(repo, 'run.loop-contract.json'),
    sampleContract({
      purpose: 'Implement parseDuration',
      expected_outputs: ['sample-target/src/time/**', 'sample-target/tests/**'],
      iteration_limit: 3,
      quality_rubric: [
        {
          dimension: 'failing-checks',
          evidence_command: CHECK,
          baseline: 1,
          target: 0,
          weight: 100,
          failure_threshold: 1,
          direction: 'lower-is-better',
          hard_gate: false,
        },
      ],
    }),
  );
  git(repo, 'add', '-A');
  git(repo, 'commit', '-qm', 'agents and contract');
  return repo;
}
