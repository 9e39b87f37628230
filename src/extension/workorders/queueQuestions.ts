// Run Queue's questions: who builds (the default `loop-ledger run` harness with the task's
// agents.toml or another agent config, or custom builder/reviewer commands) and how (one work
// order at a time, or parallel rounds of at most N). Back returns to the previous question.
import { access } from 'node:fs/promises';
import { isAbsolute, join } from 'node:path';
import * as vscode from 'vscode';
import { BACK, runSteps, settle, type Prompter, type StepPosition, type StepResult } from '../input';

export type BuilderChoice =
  { kind: 'config'; path: string } | { kind: 'commands'; builder: string; reviewer: string };

export interface QueueChoices {
  builder: BuilderChoice;
  /** Parallel rounds of at most this many work orders; undefined = sequential. */
  parallelMax?: number;
}

export interface QueueQuestionContext {
  prompter: Prompter;
  task: string;
  /** The workspace folder relative config paths are read from. */
  folder: string;
  /** Agent config files found in the workspace (absolute paths). */
  configs: string[];
  /** The builder and reviewer commands of the settings ('' = ask when chosen). */
  settings: { builder: string; reviewer: string };
}

const DEFAULT_MAX = 8;
const TITLE = (): string => vscode.l10n.t('Run Queue');

async function exists(path: string): Promise<boolean> {
  return access(path).then(
    () => true,
    () => false,
  );
}

type BuilderPick = BuilderChoice | 'other' | 'commands';

async function askText(
  prompter: Prompter,
  id: string,
  prompt: string,
  value: string,
  validate?: (text: string) => string | undefined,
): Promise<string | typeof BACK | undefined> {
  const answer = await prompter.inputText({ id, title: TITLE(), prompt, value, canGoBack: true, validate });
  if (answer === BACK || answer === undefined) return answer;
  return answer.trim() || undefined;
}

/** The custom commands: each from its setting, else asked. */
async function askCommands(ctx: QueueQuestionContext): Promise<BuilderChoice | typeof BACK | undefined> {
  const builder =
    ctx.settings.builder ||
    (await askText(
      ctx.prompter,
      'wo.builder',
      vscode.l10n.t('The builder command (it edits the files of one work order; see README)'),
      '',
    ));
  if (builder === BACK || builder === undefined) return builder;
  const reviewer =
    ctx.settings.reviewer ||
    (await askText(ctx.prompter, 'wo.reviewer', vscode.l10n.t('The reviewer command (exit 0 = pass)'), ''));
  if (reviewer === BACK || reviewer === undefined) return reviewer;
  return { kind: 'commands', builder, reviewer };
}

async function askOtherConfig(ctx: QueueQuestionContext): Promise<BuilderChoice | typeof BACK | undefined> {
  const typed = await askText(
    ctx.prompter,
    'wo.builderConfig',
    vscode.l10n.t(
      'The agent config file (TOML with [explorer], [coder], [code-reviewer]; relative to {0})',
      ctx.folder,
    ),
    '',
  );
  if (typed === BACK || typed === undefined) return typed;
  const path = isAbsolute(typed) ? typed : join(ctx.folder, typed);
  if (!(await exists(path))) {
    void vscode.window.showErrorMessage(
      vscode.l10n.t('Loop Ledger: Run Queue: no agent config at {0}', path),
    );
    return undefined;
  }
  return { kind: 'config', path };
}

async function builderStep(ctx: QueueQuestionContext, state: Partial<QueueChoices>, at: StepPosition) {
  const own = join(ctx.task, 'agents.toml');
  const items: { label: string; description?: string; detail?: string; value: BuilderPick }[] = [];
  if (await exists(own))
    items.push({
      label: vscode.l10n.t("The task's agents.toml"),
      description: vscode.l10n.t('loop-ledger run per attempt (default)'),
      detail: own,
      value: { kind: 'config', path: own },
    });
  for (const path of ctx.configs.filter((p) => p !== own))
    items.push({
      label: vscode.workspace.asRelativePath(path),
      description: vscode.l10n.t('loop-ledger run per attempt'),
      value: { kind: 'config', path },
    });
  items.push(
    { label: vscode.l10n.t('Another agent config file…'), value: 'other' },
    {
      label: vscode.l10n.t('Custom builder and reviewer commands…'),
      description: ctx.settings.builder ? vscode.l10n.t('from the settings') : undefined,
      value: 'commands',
    },
  );
  for (;;) {
    const picked = await ctx.prompter.pickOne<BuilderPick>({
      id: 'wo.builderChoice',
      title: TITLE(),
      placeholder: vscode.l10n.t('Who builds each work order?'),
      items,
      ...at,
    });
    if (picked === BACK || picked === undefined) return picked;
    const choice =
      picked === 'other'
        ? await askOtherConfig(ctx)
        : picked === 'commands'
          ? await askCommands(ctx)
          : picked;
    if (choice === BACK) continue; // back from a follow-up question: the pick again
    return settle(choice, (value) => (state.builder = value));
  }
}

/** Asks every question; undefined when the person cancelled. */
export async function askQueueChoices(ctx: QueueQuestionContext): Promise<QueueChoices | undefined> {
  const state: Partial<QueueChoices> & { parallel?: boolean } = {};
  const steps = [
    (s: typeof state, at: StepPosition) => builderStep(ctx, s, at),
    async (s: typeof state, at: StepPosition): Promise<StepResult> =>
      settle(
        await ctx.prompter.pickOne({
          id: 'wo.mode',
          title: TITLE(),
          placeholder: vscode.l10n.t('One work order at a time, or parallel rounds?'),
          items: [
            {
              label: vscode.l10n.t('Sequential'),
              description: vscode.l10n.t('one work order at a time, in the worktree'),
              value: false,
            },
            {
              label: vscode.l10n.t('Parallel'),
              description: vscode.l10n.t(
                'rounds of work orders with disjoint files, each in its own worktree',
              ),
              value: true,
            },
          ],
          ...at,
        }),
        (parallel) => (s.parallel = parallel),
      ),
    async (s: typeof state, at: StepPosition): Promise<StepResult> => {
      if (!s.parallel) {
        s.parallelMax = undefined;
        return 'skip';
      }
      return settle(
        await ctx.prompter.inputText({
          id: 'wo.max',
          title: TITLE(),
          prompt: vscode.l10n.t('At most how many work orders per round?'),
          value: String(s.parallelMax ?? DEFAULT_MAX),
          validate: (text) =>
            /^[0-9]+$/.test(text.trim()) && Number(text) > 0
              ? undefined
              : vscode.l10n.t('A positive whole number.'),
          ...at,
        }),
        (text) => (s.parallelMax = Number(text.trim())),
      );
    },
  ];
  if (!(await runSteps(state, steps)) || !state.builder) return undefined;
  return { builder: state.builder, parallelMax: state.parallelMax };
}
