// `loop-ledger repeat`: repeat an inner step until the workspace settles. A drop-in command with
// its own argv: the inner command may follow `--` verbatim, or come in one `--spec` string
// (`<inner> [then <follow-up>] [max=N]`).
import { timeoutTooLong } from '../../../engine/timeout-limit';
import { resolve } from 'node:path';
import { join as shellJoin } from 'shlex';
import { repeatOperation } from '../../../app/repeat/operation';
import {
  type RepeatOutcome,
  type RepeatReport,
  type RepeatRequest,
  type StartRequest,
} from '../../../app/repeat/types';
import { renderConvergence } from '../../../engine/repeat/convergence';
import { parseRepeatSpec } from '../../../engine/repeat/spec';
import { storeLedgers } from '../../../app/ledger/session-ledgers';
import { handDownStoreFlags, rawRequestBase, rawStore, type RawStoreFlags } from '../../raw-store';
import { printFindings, printJson, printLine } from '../../output';
import { parseFlags } from '../../parse-flags';
import { UsageError } from '../../usage-error';
import { TerminalAsker } from './prompt';

export const HELP = `usage: loop-ledger repeat --session SID [flags] --spec "<inner> [then <follow-up>] [max=N]"
       loop-ledger repeat --session SID [--max N] [--then CMD] [flags] -- INNER COMMAND…
       loop-ledger repeat --session SID [--answer WORD]          (continue a paused or interrupted repeat)
       loop-ledger resume --session SID [--answer WORD]          (the same, on a session with an unfinished repeat)

Re-runs the inner step (a shell command in the root; its stdout, or --summary-file, is its summary)
until the captured state stops changing and the summary says nothing is left. The session's ledger
must be open (loop-ledger open). One iterate per run; pauses wait for an answer.

  --session SID            session id (required)
  --root DIR               workspace root (default: the current directory)
  --spec TEXT              "<inner> [then <follow-up>] [max=N]"
  --max N                  at most N runs (with an inner command after --)
  --then CMD               follow-up after a clean settle (with an inner command after --)
  --recipe git|fs          state capture (default: git when the root holds .git, else fs)
  --scope GLOB             capture only matching paths (repeatable)
  --exclude GLOB           leave matching paths out of the capture (repeatable)
  --summary-file P         read the step's summary from P instead of its stdout
  --timeout SECONDS        per run of the step or follow-up (default 3600; 0 = none)
  --answer WORD            answer the pending question (retry, skip, abandon, change-scope, stay,
                           forward-escape; after a Stay, the follow-up's run or decline)
  --no-checkpoint          take no workspace checkpoint per run (one is taken by default;
                           see docs/checkpoints.md)
  --non-interactive        never prompt (also when stdin is not a terminal or CI is set)
  --json                   print the report as JSON
  --store URL              record in this PostgreSQL ledger store (default: $LOOP_LEDGER_STORE,
                           else the files under the root); the repeat's own files stay here
  --project NAME           the store's namespace for the sessions (default: $LOOP_LEDGER_PROJECT,
                           else the root folder's name)

Exit: 0 settled (clean); 10 partial (max-cap, abandoned, forward escape failed); 11 paused, or
settled via a cycle with the follow-up unconfirmed: waiting for --answer (question in
.loop/repeat/<session>.md); 12 the follow-up failed;
2 usage or no ledger; 3 wrong state (closed ledger, a repeat already in progress, busy).`;

const OPTIONS = {
  session: { type: 'string' },
  root: { type: 'string' },
  spec: { type: 'string' },
  max: { type: 'string' },
  then: { type: 'string' },
  recipe: { type: 'string' },
  scope: { type: 'string', multiple: true },
  exclude: { type: 'string', multiple: true },
  'summary-file': { type: 'string' },
  timeout: { type: 'string' },
  answer: { type: 'string' },
  'no-checkpoint': { type: 'boolean' },
  'non-interactive': { type: 'boolean' },
  json: { type: 'boolean' },
  store: { type: 'string' },
  project: { type: 'string' },
  help: { type: 'boolean', short: 'h' },
} as const;

/** The values parseFlags returns for OPTIONS: a string (a list for `multiple`) or true per flag given. */
type RepeatValues = {
  [K in keyof typeof OPTIONS]?: (typeof OPTIONS)[K] extends { type: 'boolean' }
    ? boolean
    : (typeof OPTIONS)[K] extends { multiple: true }
      ? string[]
      : string;
};

function wholeNumber(flag: string, text: string, min: number): number {
  if (!/^[0-9]+$/.test(text.trim()) || Number(text) < min || !Number.isSafeInteger(Number(text))) {
    throw new UsageError(`--${flag} ${text}: must be a whole number ≥ ${min}`);
  }
  return Number(text);
}

interface Parsed {
  request: Omit<RepeatRequest, 'asker'>;
  /** --store / --project as given (undefined: the environment's). */
  store: RawStoreFlags;
  json: boolean;
  interactive: boolean;
  notes: string[];
}

export function parseRepeatArgv(argv: string[], env: NodeJS.ProcessEnv, tty: boolean): Parsed | 'help' {
  const dash = argv.indexOf('--');
  const flagsPart = dash < 0 ? argv : argv.slice(0, dash);
  const innerArgv = dash < 0 ? [] : argv.slice(dash + 1);
  let values: RepeatValues;
  try {
    values = parseFlags(flagsPart, OPTIONS, { allowPositionals: false }).values as RepeatValues;
  } catch (error) {
    throw new UsageError(String((error as Error).message).split('\n')[0] ?? 'invalid arguments');
  }
  if (values.help) return 'help';
  if (!values.session) throw new UsageError('the following arguments are required: --session');
  if (values.recipe !== undefined && values.recipe !== 'git' && values.recipe !== 'fs') {
    throw new UsageError(`--recipe ${values.recipe}: choose git or fs`);
  }
  if (dash >= 0 && innerArgv.length === 0) throw new UsageError('nothing after --: give the inner command');
  const notes: string[] = [];
  let start: StartRequest | undefined;
  const inner = innerArgv.length > 0 ? shellJoin(innerArgv) : undefined;
  const common = {
    recipe: values.recipe as 'git' | 'fs' | undefined,
    scope: values.scope ?? [],
    exclude: values.exclude ?? [],
    summaryFile: values['summary-file'] ?? null,
  };
  if (values.spec !== undefined) {
    if (inner !== undefined)
      throw new UsageError('--spec and an inner command after -- are exclusive; give one');
    if (values.max !== undefined || values.then !== undefined) {
      throw new UsageError(
        '--max/--then go with an inner command after --; inside --spec write max=N and "then"',
      );
    }
    const parsed = parseRepeatSpec(values.spec);
    if (!parsed.ok) throw new UsageError(parsed.message);
    notes.push(...parsed.spec.notes);
    start = { ...common, inner: parsed.spec.inner, followUp: parsed.spec.followUp, max: parsed.spec.max };
  } else if (inner !== undefined && values.answer === undefined) {
    const max = values.max === undefined ? null : wholeNumber('max', values.max, 1);
    start = { ...common, inner, followUp: values.then?.trim() || null, max };
  } else if (values.max !== undefined || values.then !== undefined) {
    throw new UsageError('--max/--then start a new repeat: give the inner command after --');
  }
  if (values.answer !== undefined && values.answer.trim() === '') throw new UsageError('--answer is empty');
  const change =
    values.answer !== undefined
      ? {
          ...(values.scope?.length ? { scope: values.scope } : {}),
          ...(values.exclude?.length ? { exclude: values.exclude } : {}),
          ...(inner !== undefined ? { inner } : {}),
        }
      : undefined;
  const timeout = values.timeout === undefined ? 3600 : wholeNumber('timeout', values.timeout, 0);
  const timeoutLimit = timeoutTooLong('--timeout', timeout);
  if (timeoutLimit) throw new UsageError(timeoutLimit);
  const interactive = !values['non-interactive'] && tty && !env.CI;
  return {
    request: {
      root: resolve(values.root ?? '.'),
      session: values.session,
      ...(start ? { start } : {}),
      ...(values.answer !== undefined ? { answer: values.answer } : {}),
      ...(change ? { change } : {}),
      timeoutMs: timeout * 1000,
      ...(values['no-checkpoint'] ? { checkpoint: false } : {}),
    },
    store: { store: values.store, project: values.project },
    json: values.json ?? false,
    interactive,
    notes,
  };
}

/** The report as a person reads it (the progress lines were printed as the loop ran). */
export function humanReport(report: RepeatReport): string {
  const lines = report.notes.map((note) => `note: ${note}`);
  lines.push(renderConvergence(report.summary).trimEnd());
  if (report.follow_up) {
    lines.push(
      `\nFollow-up \`${report.follow_up.command}\`: ${report.follow_up.ran ? '' : 'not run — '}${report.follow_up.reason}`,
    );
  }
  if (report.question) {
    lines.push(`\n${report.question.text}`);
    lines.push(
      `\n${report.status === 'finished' ? 'Settled; the follow-up waits' : 'Paused'}. Answer with: loop-ledger repeat --session ${report.session} --answer WORD  (state: ${report.state_file})`,
    );
  } else if (report.status === 'running') {
    lines.push(
      `\nStopped before the loop ended; continue with: loop-ledger repeat --session ${report.session}`,
    );
  }
  return lines.join('\n');
}

/**
 * Runs the repeat operation with the shell's signals (SIGINT/SIGTERM cancel the running step) and
 * its progress lines; `repeat` and `resume` (on a session whose repeat is unfinished) share it.
 */
export async function runRepeatFromShell(
  request: Omit<RepeatRequest, 'asker'>,
  options: { json: boolean; interactive: boolean },
): Promise<RepeatOutcome> {
  const controller = new AbortController();
  const onSignal = () => controller.abort();
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);
  const asker = options.interactive ? new TerminalAsker() : undefined;
  try {
    return await repeatOperation({
      ...request,
      ...(asker ? { asker } : {}),
      signal: controller.signal,
      onProgress: options.json
        ? undefined
        : (e) => printLine(`repeat ${e.iteration}: ${e.classification} — ${e.changeMetric} — ${e.tag}`),
    });
  } finally {
    asker?.dispose();
    process.off('SIGINT', onSignal);
    process.off('SIGTERM', onSignal);
  }
}

export async function main(argv: string[]): Promise<number> {
  const parsed = parseRepeatArgv(argv, process.env, Boolean(process.stdin.isTTY && process.stdout.isTTY));
  if (parsed === 'help') {
    printLine(HELP);
    return 0;
  }
  if (parsed.notes.length > 0) printFindings(parsed.notes.map((n) => `loop-ledger repeat: note: ${n}`));
  const store = rawStore(parsed.request.root, parsed.store);
  handDownStoreFlags(parsed.store);
  let outcome;
  try {
    outcome = await runRepeatFromShell(
      store ? { ...parsed.request, ledgers: storeLedgers(store, rawRequestBase()) } : parsed.request,
      parsed,
    );
  } finally {
    await store?.end();
  }
  if (outcome.payload) {
    if (parsed.json) printJson(outcome.payload);
    else printLine(humanReport(outcome.payload));
  }
  if (outcome.findings.length > 0)
    printFindings(outcome.findings.map((f) => `loop-ledger repeat: ${f.message}`));
  return outcome.exitCode;
}
