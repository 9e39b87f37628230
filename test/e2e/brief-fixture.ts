// A git repository with an open Loop Ledger session and an uncommitted change, made inside a
// workbench's temporary workspace: what the critic-brief tests and the benchmark judge.
import { execFileSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { repoRoot } from './workbench';

export const SESSION = 'greeting';
export const VERIFICATION_FILE = '.loop/evidence/suite.txt';

const contract = {
  purpose: 'Make the greeting friendlier without breaking its tests',
  owner: 'docs team',
  starting_state: 'greet() returns a terse greeting',
  inputs: ['src/greet.js'],
  expected_outputs: ['a friendlier greeting'],
  success_criteria: ['every test passes'],
  failure_criteria: ['a test fails'],
  dependencies: ['node'],
  iteration_limit: 5,
  timeout_behaviour: 'record pause and stop',
  escalation_path: 'ask the docs team',
  quality_rubric: [
    {
      dimension: 'tests-passing',
      evidence_command: 'node --version',
      baseline: 10,
      target: 12,
      weight: 70,
      failure_threshold: 9,
      direction: 'higher-is-better',
      hard_gate: true,
    },
    {
      dimension: 'lint-warnings',
      evidence_command: 'echo 3',
      baseline: 3,
      target: 0,
      weight: 30,
      failure_threshold: 6,
      direction: 'lower-is-better',
      hard_gate: false,
    },
  ],
};

function git(cwd: string, ...args: string[]): string {
  return execFileSync('git', args, { cwd, encoding: 'utf8' });
}

/** `git init`, a first commit of the workspace, a session opened through the CLI. */
export function prepareRepository(workspace: string): void {
  git(workspace, 'init', '--quiet', '--initial-branch=main');
  git(workspace, 'config', 'user.email', 'e2e@example.invalid');
  git(workspace, 'config', 'user.name', 'Loop Ledger e2e');
  writeFileSync(join(workspace, '.gitignore'), '.loop/\n');
  git(workspace, 'add', '-A');
  git(workspace, 'commit', '--quiet', '-m', 'initial');
  const contracts = join(workspace, '.loop', 'contracts');
  mkdirSync(contracts, { recursive: true });
  const contractPath = join(contracts, `${SESSION}.json`);
  writeFileSync(contractPath, JSON.stringify(contract, null, 2) + '\n');
  execFileSync(
    process.execPath,
    [
      join(repoRoot, 'dist', 'cli.js'),
      'open',
      '--root',
      workspace,
      '--session',
      SESSION,
      '--contract',
      contractPath,
    ],
    { encoding: 'utf8' },
  );
  mkdirSync(join(workspace, '.loop', 'evidence'), { recursive: true });
  writeFileSync(join(workspace, VERIFICATION_FILE), 'greet: 12 passing, 0 failing\nlint: 1 warning\n');
}

/** `files` files of `linesPerFile` added lines each, plus the greeting change; returns the file count. */
export function changeWorkingTree(workspace: string, files = 0, linesPerFile = 0): void {
  writeFileSync(
    join(workspace, 'src', 'greet.js'),
    '// The greeting the sample workspace exports.\nexport function greet(name) {\n  return `Hello, ${name}! Welcome back.`;\n}\n' +
      // A line far wider than a diff column at 1400×900, for the scroll and wrap checks.
      `export const LONG_LINE = '${'a long line that does not fit in one diff column '.repeat(6).trim()} END';\n`,
  );
  if (files === 0) return;
  const generated = join(workspace, 'src', 'generated');
  mkdirSync(generated, { recursive: true });
  for (let i = 0; i < files; i++) {
    const name = join(generated, `module-${String(i).padStart(3, '0')}.js`);
    writeFileSync(
      name,
      Array.from({ length: linesPerFile }, (_, k) => `export const value${k} = ${i * 1000 + k};`).join('\n') +
        '\n',
    );
  }
  // Intent-to-add: new files show in `git diff HEAD` without being staged.
  git(workspace, 'add', '--intent-to-add', 'src/generated');
}
