import { isAbsolute, join } from 'node:path';
import { CONTRACT_LIMIT } from '../../app/read-input';
import * as vscode from 'vscode';
import { readTextFileAsync } from '../../store/read-async';
import { openOp } from '../../app/contract/operations';
import type { OpenPayload } from '../../engine/open';
import { STALL_THRESHOLD_FIELD, stallThresholdProblem } from '../../engine/open-settings';
import { sessionIdProblem } from '../../store';
import type { Command } from '../commandManager';
import { askEach, BACK, runSteps, settle, type Step } from '../input';
import { workspaceRoots, type WorkspaceRoot } from '../workspace/roots';
import { inUiWords } from '../findingWords';
import { cliLine, withFlags } from './cliHistory';
import type { CommandDeps, CommandReport } from './deps';
import { CANCELLED, nothingToDo, reportDone, reportRefusal, reportUntrusted } from './report';
import { writeWithoutBlocking } from '../workspace/ledgerWrites';

const TITLE = (): string => vscode.l10n.t('Open Loop');
const STEP_TITLE = (): string => vscode.l10n.t('Loop Ledger: Open Loop');
const CONTRACT_GLOB = '**/.loop/contracts/**/*.json';

interface ContractChoice {
  readonly root: WorkspaceRoot;
  readonly path: string;
}

interface OpenAnswers {
  contract?: ContractChoice;
  session?: string;
  stallThreshold?: number;
  evidence: { dimension: string; path: string }[];
}

/**
 * Opens a loop (or re-opens a closed one as a new epoch) through openOp: contract file →
 * session id → stall threshold → optional baseline transcripts. The engine validates the
 * contract; its findings are shown when it refuses.
 */
export class OpenLoopCommand implements Command {
  readonly id = 'loopLedger.openLoop';

  constructor(private readonly deps: CommandDeps) {}

  async execute(argument?: unknown): Promise<CommandReport<OpenPayload>> {
    const { deps } = this;
    if (!deps.trust.isTrusted) return reportUntrusted(deps, TITLE());
    const roots = workspaceRoots();
    if (roots.length === 0)
      return nothingToDo(vscode.l10n.t('open a folder first; loops live in its .loop folder.'));
    const given = contractFromArgument(argument, roots);
    const contracts = given ? [given] : await findContracts(roots);
    if (contracts.length === 0) {
      return nothingToDo(
        vscode.l10n.t(
          'there is no contract under .loop/contracts/ yet. Create one first (Loop Ledger: New Contract).',
        ),
      );
    }
    const ask = () => deps.prompter.current;
    const steps: Step<OpenAnswers>[] = [
      async (s, at) => {
        if (given) return ((s.contract = given), 'skip');
        const purposes = await Promise.all(contracts.map((c) => purposeOf(c.path)));
        const items = contracts.map((c, i) => ({
          label: vscode.workspace.asRelativePath(c.path, roots.length > 1),
          description: purposes[i],
          value: c,
        }));
        return settle(
          await ask().pickOne({
            id: 'open.contract',
            title: STEP_TITLE(),
            placeholder: vscode.l10n.t('Which contract?'),
            items,
            ...at,
          }),
          (v) => (s.contract = v),
        );
      },
      async (s, at) =>
        settle(
          await ask().inputText({
            id: 'open.session',
            title: STEP_TITLE(),
            prompt: vscode.l10n.t(
              'Session id (letters, digits, . _ -); an existing closed session is re-opened as a new epoch',
            ),
            value: s.session ?? '',
            validate: (text) =>
              text === '' ? vscode.l10n.t('a session id is needed') : (sessionIdProblem(text) ?? undefined),
            ...at,
          }),
          (v) => (s.session = v),
        ),
      async (s, at) =>
        settle(
          await ask().inputText({
            id: 'open.stallThreshold',
            title: STEP_TITLE(),
            prompt: vscode.l10n.t('Stall threshold: how many repeats of one error escalate the loop'),
            value: String(s.stallThreshold ?? 3),
            validate: stallThresholdInputProblem,
            ...at,
          }),
          (v) => (s.stallThreshold = Number(v)),
        ),
      async (s, at) => {
        const dimensions = await rubricDimensions(s.contract!.path);
        if (dimensions.length === 0) return ((s.evidence = []), 'skip');
        const picked = await ask().pickMany({
          id: 'open.baselineEvidence',
          title: STEP_TITLE(),
          placeholder: vscode.l10n.t(
            'Baselines shown by a transcript (optional; select none to declare them)',
          ),
          items: dimensions.map((d) => ({
            label: d,
            value: d,
            picked: s.evidence.some((e) => e.dimension === d),
          })),
          ...at,
        });
        if (picked === undefined || picked === BACK) return picked;
        const paths = await askEach(picked, (dimension) =>
          ask().inputText({
            id: `open.baselineEvidence.${dimension}`,
            title: STEP_TITLE(),
            prompt: vscode.l10n.t(
              'Transcript file that shows the {0} baseline (relative to the workspace folder)',
              dimension,
            ),
            validate: (text) => (text.trim() === '' ? vscode.l10n.t('a file path is needed') : undefined),
            canGoBack: true,
          }),
        );
        if (paths === BACK) return BACK;
        return settle(
          paths,
          (list) => (s.evidence = picked.map((dimension, i) => ({ dimension, path: list[i]!.trim() }))),
        );
      },
    ];
    const answers: OpenAnswers = { evidence: [] };
    if (!(await runSteps(answers, steps))) return CANCELLED;

    const { root, path } = answers.contract!;
    const session = answers.session!;
    const baselineEvidence = answers.evidence.map(
      (e) => `${e.dimension}=${isAbsolute(e.path) ? e.path : join(root.path, e.path)}`,
    );
    // A ledger store in the settings (loopLedger.store) takes the write; else the root's files.
    const store = deps.sessions.storeWrites(root.path);
    const cli = withFlags(
      cliLine('open', [
        ['root', root.path],
        ['session', session],
        ['contract', path],
        ['stall-threshold', answers.stallThreshold],
        ['baseline-evidence', baselineEvidence],
      ]),
      store?.cliFlags ?? [],
    );
    const now = deps.now();
    const input = { contractPath: path, stallThreshold: answers.stallThreshold, baselineEvidence, now };
    const outcome = store
      ? await store.run((ops) => ops.open(session, input))
      : await writeWithoutBlocking((lock) => openOp(root.path, session, input, lock));
    if (store) await deps.sessions.refreshSession(root.path, session);
    else await deps.sessions.refreshFile(join(root.path, '.loop', 'ledgers', `${session}.json`));
    if (outcome.exitCode !== 0 || !outcome.payload) {
      const findings = outcome.findings.map((f) =>
        f.path?.[0] === STALL_THRESHOLD_FIELD
          ? { ...f, message: vscode.l10n.t('Stall threshold: {0}', f.message) }
          : f,
      );
      return reportRefusal(deps, TITLE(), { ...outcome, findings }, cli);
    }
    deps.cliHistory.remember(root.path, session, 'open', cli);
    const p = outcome.payload;
    const message =
      p.epoch > 1
        ? vscode.l10n.t(
            '{0}: open (re-opened as epoch {1}), next iteration {2}.',
            session,
            p.epoch,
            p.next_iteration,
          )
        : vscode.l10n.t('{0}: open, next iteration {1}.', session, p.next_iteration);
    return reportDone(deps, message, p, {
      cli,
      findings: outcome.findings.map(inUiWords),
    });
  }
}

/** The engine's rule on the typed number, shown while typing (openOp applies it again). */
function stallThresholdInputProblem(text: string): string | undefined {
  if (!/^\s*[+-]?\d+\s*$/.test(text)) return vscode.l10n.t('a whole number, e.g. 3');
  const problem = stallThresholdProblem(Number(text));
  return problem ? vscode.l10n.t('Stall threshold: {0}', problem.message) : undefined;
}

/** A contract passed by the explorer context menu or another command (a Uri or `{path}`). */
function contractFromArgument(argument: unknown, roots: WorkspaceRoot[]): ContractChoice | undefined {
  const path =
    argument instanceof vscode.Uri ? argument.fsPath : (argument as { contractPath?: unknown })?.contractPath;
  if (typeof path !== 'string') return undefined;
  const root = rootOfPath(path, roots);
  return root ? { root, path } : undefined;
}

async function findContracts(roots: WorkspaceRoot[]): Promise<ContractChoice[]> {
  const found = await vscode.workspace.findFiles(CONTRACT_GLOB, '**/node_modules/**', 200);
  return found
    .map((uri) => uri.fsPath)
    .sort()
    .flatMap((path) => {
      const root = rootOfPath(path, roots);
      return root ? [{ root, path }] : [];
    });
}

function rootOfPath(path: string, roots: WorkspaceRoot[]): WorkspaceRoot | undefined {
  return roots
    .filter((r) => path.startsWith(r.path + '/') || path.startsWith(r.path + '\\'))
    .sort((a, b) => b.path.length - a.path.length)[0];
}

/**
 * The contract's JSON, best effort: only to label items and offer dimensions; openOp validates.
 * Read without blocking the extension host, and no more than the CLI's contract cap.
 */
async function contractJson(
  path: string,
): Promise<{ purpose?: unknown; quality_rubric?: unknown } | undefined> {
  const read = await readTextFileAsync(path, CONTRACT_LIMIT);
  if (read.kind !== 'ok') return undefined;
  try {
    return JSON.parse(read.text) as { purpose?: unknown; quality_rubric?: unknown };
  } catch {
    return undefined;
  }
}

async function purposeOf(path: string): Promise<string | undefined> {
  const purpose = (await contractJson(path))?.purpose;
  return typeof purpose === 'string' ? purpose : undefined;
}

async function rubricDimensions(path: string): Promise<string[]> {
  const rubric = (await contractJson(path))?.quality_rubric;
  if (!Array.isArray(rubric)) return [];
  return rubric.flatMap((d) => (typeof d?.dimension === 'string' ? [d.dimension as string] : []));
}
