// A workspace for `loop-ledger repeat` CLI tests: a temporary root (plain folder or git repo) with
// an opened session, and a plan for the scripted step (test/fixtures/repeat/step.mjs) kept outside
// the root so the step's bookkeeping is never part of the captured state.
import { execFileSync, spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import {
  CLI,
  childEnv,
  cliResultOf,
  readLedger,
  runCli,
  sampleContract,
  tempRoot,
  writeJson,
  type CliResult,
} from '../helpers/cli';

export const STEP = resolve(__dirname, '../../../../test/fixtures/repeat/step.mjs');

export interface PlannedRun {
  summary: string;
  files?: Record<string, string | null>;
  commit?: string;
  exit?: number;
  sleepMs?: number;
  startedMarker?: string;
  summaryFile?: string;
  stderr?: string;
}

export interface Workspace {
  root: string;
  session: string;
  plan: string;
  /** `node step.mjs`, quoted for the shell. */
  step: string;
  setPlan(runs: PlannedRun[]): void;
  repeat(...args: string[]): CliResult;
  /** `loop-ledger resume` on the session, with the step's plan in the environment. */
  resume(...args: string[]): CliResult;
  repeatAsync(...args: string[]): { child: ChildProcess; done: Promise<CliResult> };
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  ledger(): any;
  log(): { n: number; pid: number; directive: string | null; iteration: string }[];
}

export function workspace(
  kind: 'git' | 'fs',
  options: { commit?: boolean; iterationLimit?: number } = {},
): Workspace {
  const outside = tempRoot('loop-ledger-repeat-plan-');
  const root = join(outside, 'root');
  mkdirSync(root);
  writeFileSync(join(root, 'README.md'), 'A small project.\n');
  if (kind === 'git') {
    execFileSync('git', ['init', '-q', '-b', 'main', root]);
    if (options.commit !== false) {
      execFileSync('git', ['-C', root, 'add', '-A']);
      execFileSync('git', [
        '-C',
        root,
        '-c',
        'user.name=t',
        '-c',
        'user.email=t@e',
        'commit',
        '-q',
        '-m',
        'start',
      ]);
    }
  }
  const session = 'rep';
  const contract = writeJson(
    join(outside, 'contract.json'),
    sampleContract({ iteration_limit: options.iterationLimit ?? 50 }),
  );
  const opened = runCli(['open', '--root', root, '--session', session, '--contract', contract]);
  if (opened.code !== 0) throw new Error(`open failed: ${opened.stderr}`);
  const plan = join(outside, 'plan.json');
  const env = () => childEnv({ REPEAT_PLAN: plan, CI: '' });
  const parse = cliResultOf;
  const argv = (args: string[], command = 'repeat') => [
    CLI,
    command,
    '--root',
    root,
    '--session',
    session,
    ...args,
  ];
  return {
    root,
    session,
    plan,
    step: `node ${JSON.stringify(STEP)}`,
    setPlan: (runs) => writeFileSync(plan, JSON.stringify(runs)),
    repeat: (...args) =>
      parse(spawnSync(process.execPath, argv(args), { env: env(), encoding: 'utf8', timeout: 60_000 })),
    resume: (...args) =>
      parse(
        spawnSync(process.execPath, argv(args, 'resume'), { env: env(), encoding: 'utf8', timeout: 60_000 }),
      ),
    repeatAsync: (...args) => {
      const child = spawn(process.execPath, argv(args), { env: env() });
      let stdout = '';
      let stderr = '';
      child.stdout?.on('data', (d) => (stdout += d));
      child.stderr?.on('data', (d) => (stderr += d));
      const done = new Promise<CliResult>((ok) =>
        child.on('close', (code) => ok(parse({ status: code, stdout, stderr }))),
      );
      return { child, done };
    },
    ledger: () => readLedger(root, session),
    log: () =>
      existsSync(`${plan}.log`)
        ? readFileSync(`${plan}.log`, 'utf8')
            .split('\n')
            .filter((l) => l !== '')
            .map((l) => JSON.parse(l))
        : [],
  };
}

/** The repeat records' classifications, in order. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export function classifications(ledger: any): string[] {
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  return ledger.iterations.filter((r: any) => r.repeat).map((r: any) => r.repeat.classification);
}
