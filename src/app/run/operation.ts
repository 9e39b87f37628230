// `loop-ledger run` as an operation both shells call: preflight (nothing written on refusal),
// the run directory, the ledger epoch, resume from the files, then the harness.
import { existsSync, mkdirSync, renameSync, statSync } from 'node:fs';
import { accessSync, constants } from 'node:fs';
import { delimiter, dirname, isAbsolute, join, resolve } from 'node:path';
import { parse as parseToml } from 'smol-toml';
import {
  AgentConfigError,
  readAgentConfig,
  skillDirOf,
  type AgentConfig,
} from '../../engine/run/agent-config';
import { attemptDirName } from '../../engine/run/ledger-mapping';
import type { CheckRecord, FinalReceipt } from '../../engine/run/receipt';
import { runIdBase, uniqueRunId } from '../../engine/run/run-id';
import { reviewDecision } from '../../engine/run/stop-rules';
import { RunDirectory } from '../../drivers/run/artifacts';
import { changedFiles, workTreeTop } from '../../drivers/run/git';
import { FRESH_START, runHarness, type Progress, type StartPoint } from '../../drivers/run/harness';
import { EXIT } from '../../engine/refusal';
import { timeoutTooLong } from '../../engine/timeout-limit';
import { sessionIdProblem } from '../../store';
import { readBoundedText, SMALL_FILE_LIMIT, UnreadableFileError } from '../../store/bounded-read';
import { confineWrite, OutsideRootError } from '../../store/confine';
import { Refused } from '../outcome';
import { fileLedgers, type SessionLedgers } from '../ledger/session-ledgers';
import { LedgerRecorder } from './ledger';
import { readRunJson } from './files';
import { settleLastRun } from './recover';
import { basicUtcMillis } from '../../engine/utc-iso';
import {
  findUnfinishedRun,
  openRunEpoch,
  reenterRunEpoch,
  RUN_LEDGER_FILE,
  type UnfinishedRun,
} from './session';

// The window's live-run view shows these phases as they are reported.
export type { Progress };

export interface RunOpInput {
  root: string;
  objective: string;
  /** As typed: relative to the root, or absolute. */
  agentConfig: string;
  allow: string[];
  checks: string[];
  maxAttempts: number;
  checkTimeout: number;
  runRoot: string;
  requireClean: boolean;
  /** false: no workspace checkpoint per attempt (taken by default; see ledger.ts). */
  checkpoint?: boolean;
  /** The checkpoints' size cap in MB (default: LOOP_LEDGER_CHECKPOINT_MAX_MB, else 10). */
  checkpointMaxFileMB?: number;
  session?: string;
  /** Where the run's ledger lives (default: the files under the root). */
  ledgers?: SessionLedgers;
  /** `{python}`: an interpreter path or name (default: python3 on PATH). */
  python?: string;
  env: Record<string, string | undefined>;
  now: () => Date;
  signal?: AbortSignal;
  onProgress?: (progress: Progress) => void;
  onOutput?: (source: string, stream: 'stdout' | 'stderr', text: string) => void;
  /** Told once the run directory exists (before any agent runs). */
  onStart?: (info: { runId: string; runDir: string; session: string; resumed: boolean }) => void;
}

export type RunOpResult =
  | {
      kind: 'refused';
      exitCode: number;
      findings: string[];
      /** Done before the refusal: the session's previous run's ending, recovered (see recover.ts). */
      notes: string[];
    }
  | {
      kind: 'receipt';
      receipt: FinalReceipt;
      exitCode: 0 | 1;
      runId: string;
      runDir: string;
      session: string;
      resumed: boolean;
      /** Lines for stderr: a recovered earlier ending, what the ledger could not take. */
      warnings: string[];
    }
  | {
      kind: 'cancelled';
      runId: string;
      runDir: string;
      session: string;
      attempt: number;
      phase: string;
      marker: string;
    };

function onPath(name: string, pathVar: string): string | null {
  for (const dir of pathVar.split(delimiter)) {
    if (!dir) continue;
    const full = join(dir, name);
    try {
      accessSync(full, constants.X_OK);
      if (statSync(full).isFile()) return full;
    } catch {
      // next
    }
  }
  return null;
}

/** Reads and checks the agent config; every problem is a preflight refusal naming the file. */
export function loadAgentConfig(
  root: string,
  typed: string,
  python: string | undefined,
  env: RunOpInput['env'],
): AgentConfig {
  const file = resolve(root, typed);
  let text: string;
  try {
    // Bounded: a FIFO, /dev/zero or a 50 MB TOML in the config's place is refused, not waited on.
    text = readBoundedText(file, SMALL_FILE_LIMIT);
  } catch (error) {
    if (!(error instanceof UnreadableFileError)) throw error;
    throw new Refused(EXIT.usage, [
      `--agent-config ${typed}: ${error.missing ? 'cannot read (no such file)' : error.reason}`,
    ]);
  }
  let parsed: unknown;
  try {
    parsed = parseToml(text);
  } catch (error) {
    const first = ((error as Error).message ?? '').split('\n')[0];
    throw new Refused(EXIT.usage, [`--agent-config ${typed}: invalid TOML: ${first}`]);
  }
  const configDir = dirname(file);
  try {
    return readAgentConfig(parsed, typed, {
      python: python ?? onPath('python3', env.PATH ?? '') ?? 'python3',
      node: process.execPath,
      config_dir: configDir,
      skill_dir: skillDirOf(configDir),
    });
  } catch (error) {
    if (error instanceof AgentConfigError) throw new Refused(EXIT.usage, [`--agent-config ${error.message}`]);
    throw error;
  }
}

function sameRequest(input: RunOpInput, run: UnfinishedRun): string | null {
  const r = run.request;
  const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);
  if (r.objective !== input.objective) return 'objective';
  if (!same(r.allowed_globs, input.allow)) return '--allow';
  if (!same(r.checks, input.checks)) return '--check';
  if (r.max_attempts !== input.maxAttempts) return '--max-attempts';
  return null;
}

/** Moves a partial step's files aside (kept as evidence) so the rerun writes into a clean folder. */
function setAside(run: RunDirectory, inside: string, stamp: string): void {
  const from = run.abs(inside);
  if (!existsSync(from)) return;
  const parts = inside.split('/');
  const last = parts.pop() as string;
  renameSync(from, run.abs([...parts, `.${last}.interrupted-${stamp}`].join('/')));
}

/** Where a resumed run continues, rebuilt from the run directory and the recorded attempts. */
function resumePoint(run: RunDirectory, recorded: number[], stamp: string): StartPoint {
  const last = recorded.length > 0 ? Math.max(...recorded) : 0;
  const next = last + 1;
  for (let n = next; existsSync(run.abs(`attempts/${attemptDirName(n)}`)); n++)
    setAside(run, `attempts/${attemptDirName(n)}`, stamp);
  setAside(run, 'cancelled.json', stamp);
  if (last === 0) {
    setAside(run, 'explorer', stamp);
    return FRESH_START;
  }
  const explorer = readRunJson(run.abs('explorer/explorer-result.json'));
  const folder = `attempts/${attemptDirName(last)}`;
  const checks = (readRunJson(run.abs(`${folder}/checks.json`)) ?? []) as CheckRecord[];
  const reviewerResult = readRunJson(run.abs(`${folder}/code-reviewer-result.json`));
  // A recorded `continue` attempt had a reviewer that exited 0, did not edit and gave a verdict:
  // the same decision rebuilds what the next coder is told.
  const decision = reviewDecision({ code: 0, edited: false, result: reviewerResult, checks });
  if (decision.kind !== 'repair')
    throw new Refused(EXIT.wrongState, [
      `${run.relPath}: attempt ${last} is recorded but its files do not show a repair`,
    ]);
  return {
    attempt: next,
    explorer: { result: explorer ?? null },
    previousFindings: decision.previousFindings,
    lastReviewer: decision.reviewer,
    lastChecks: checks,
    lastDiff: `${folder}/diff.patch`,
  };
}

export async function runOp(input: RunOpInput): Promise<RunOpResult> {
  const notes: string[] = [];
  try {
    return await runChecked(input, notes);
  } catch (error) {
    if (error instanceof Refused)
      return {
        kind: 'refused',
        exitCode: error.exitCode,
        findings: error.findings.map((f) => f.message),
        notes,
      };
    throw error;
  }
}

async function runChecked(input: RunOpInput, notes: string[]): Promise<RunOpResult> {
  const root = resolve(input.root);
  if (input.objective.trim() === '') throw new Refused(EXIT.usage, ['ERROR: objective must not be empty']);
  if (input.maxAttempts < 1) throw new Refused(EXIT.usage, ['ERROR: --max-attempts must be >= 1']);
  if (input.checkTimeout < 1) throw new Refused(EXIT.usage, ['ERROR: --check-timeout must be >= 1']);
  const checkTimeoutLimit = timeoutTooLong('--check-timeout', input.checkTimeout);
  if (checkTimeoutLimit) throw new Refused(EXIT.usage, [`ERROR: ${checkTimeoutLimit}`]);
  const top = await workTreeTop(root);
  if (top === null) throw new Refused(EXIT.usage, [`--root ${root}: not inside a git work tree`]);
  if (resolve(top) !== root)
    throw new Refused(EXIT.usage, [
      `--root ${root}: not the top of its git work tree (${top}); run from the repository root`,
    ]);
  if (isAbsolute(input.runRoot) || input.runRoot.split('/').includes('..'))
    throw new Refused(EXIT.usage, [
      `--run-root ${input.runRoot}: must be a relative path inside the repository`,
    ]);
  if (input.session !== undefined) {
    const problem = sessionIdProblem(input.session);
    if (problem) throw new Refused(EXIT.usage, [problem]);
  }
  const agents = loadAgentConfig(root, input.agentConfig, input.python, input.env);
  const ledgers = input.ledgers ?? fileLedgers(root);
  // The session's previous run may have died after the ledger took its ending but before its
  // receipt, or an agent may have forged a receipt and killed it: settling that is the previous
  // run's last step, so it is done first, even if this run is then refused.
  if (input.session !== undefined) {
    const recovered = await settleLastRun(ledgers, root, input.runRoot, input.session, input.now);
    if (recovered) notes.push(recovered);
  }

  const unfinished =
    input.session !== undefined ? findUnfinishedRun(root, input.runRoot, input.session) : null;
  let run: RunDirectory;
  let runId: string;
  let session: string;
  let start: StartPoint = FRESH_START;
  if (unfinished) {
    const differs = sameRequest(input, unfinished);
    if (differs)
      throw new Refused(EXIT.usage, [
        `--session ${input.session}: run ${unfinished.runId} is unfinished with a different ${differs}; resume it with the same request or use another session`,
      ]);
    session = input.session as string;
    runId = unfinished.runId;
    run = new RunDirectory(root, unfinished.runDirRel);
    const recorded = await reenterRunEpoch(ledgers, session, runId);
    start = resumePoint(run, recorded, basicUtcMillis(input.now().getTime()));
  } else {
    const dirty = input.requireClean ? await changedFiles(root) : [];
    if (dirty.length > 0)
      throw new Refused(EXIT.usage, [
        'ERROR: working tree is not clean before loop run',
        `changed: ${dirty.slice(0, 10).join(', ')}${dirty.length > 10 ? ` and ${dirty.length - 10} more` : ''} (commit or stash them, or pass --no-require-clean)`,
      ]);
    const runRootAbs = join(root, input.runRoot);
    runId = uniqueRunId(runIdBase(input.objective, input.now()), (id) => existsSync(join(runRootAbs, id)));
    session = input.session ?? runId;
    const runDirRel = `${input.runRoot.replace(/\/+$/, '')}/${runId}`;
    // Before the ledger is touched: a committed `.loop/runs` link must not carry the run folder
    // out of the repository.
    try {
      confineWrite(root, join(runRootAbs, runId, RUN_LEDGER_FILE));
    } catch (error) {
      if (error instanceof OutsideRootError)
        throw new Refused(EXIT.usage, [`--run-root ${input.runRoot}: ${error.message}`]);
      throw error;
    }
    const epoch = await openRunEpoch(
      ledgers,
      root,
      session,
      {
        objective: input.objective,
        allowedGlobs: input.allow,
        checks: input.checks,
        maxAttempts: input.maxAttempts,
        runId,
        runDir: runDirRel,
      },
      input.now(),
    );
    mkdirSync(runRootAbs, { recursive: true });
    mkdirSync(join(runRootAbs, runId));
    run = new RunDirectory(root, runDirRel);
    await run.writeJson('request.json', {
      agent_config: input.agentConfig,
      allowed_globs: input.allow,
      check_timeout: input.checkTimeout,
      checks: input.checks,
      max_attempts: input.maxAttempts,
      objective: input.objective,
    });
    await run.write('objective.md', input.objective + '\n');
    await run.writeJson(RUN_LEDGER_FILE, { epoch, run_id: runId, session });
  }
  input.onStart?.({ runId, runDir: run.relPath, session, resumed: unfinished !== null });

  const result = await runHarness({
    repo: root,
    parentEnv: input.env,
    signal: input.signal,
    onOutput: input.onOutput,
    onProgress: input.onProgress,
    runId,
    run,
    request: {
      objective: input.objective,
      allowedGlobs: input.allow,
      checks: input.checks,
      maxAttempts: input.maxAttempts,
      checkTimeout: input.checkTimeout,
    },
    agents,
    start,
    recorder: new LedgerRecorder(
      root,
      session,
      runId,
      run.relPath,
      input.now,
      input.checkpoint === false ? false : { maxFileMB: input.checkpointMaxFileMB },
      ledgers,
    ),
  });
  if (result.kind === 'cancelled')
    return {
      kind: 'cancelled',
      runId,
      runDir: run.relPath,
      session,
      attempt: result.attempt,
      phase: result.phase,
      marker: result.marker,
    };
  return {
    kind: 'receipt',
    receipt: result.receipt,
    exitCode: result.exitCode,
    runId,
    runDir: run.relPath,
    session,
    resumed: unfinished !== null,
    warnings: [...notes, ...result.warnings],
  };
}
