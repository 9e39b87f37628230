// Where the verification output in a brief comes from: a file the person names, or a transcript
// of the rubric's evidence commands run in a visible terminal — only in a trusted workspace, and
// only after the person has seen the commands and said yes.
import * as l10n from '@vscode/l10n';
import { isAbsolute, join } from 'node:path';
import type { BriefInput } from '../../engine/brief';
import type { RubricDimension } from '../../engine/types';
import { stat } from 'node:fs/promises';
import { INPUT_LIMIT } from '../../app/read-input';
import { readTextFileAsync } from '../../store/read-async';
import { BACK, type Answer, type PickItem, type Prompter, type StepPosition } from '../input';
import { runEvidenceCommands } from './evidenceTerminal';

export type VerificationChoice = { kind: 'file'; path: string } | { kind: 'run'; commands: string[] };

function resolvePath(root: string, path: string): string {
  return isAbsolute(path) ? path : join(root, path);
}

/** Checked with an asynchronous stat: the box asks on every keystroke, the host never waits. */
async function fileProblem(root: string, text: string): Promise<string | undefined> {
  if (text.trim() === '')
    return l10n.t('Name the file holding the verification output (relative to the workspace).');
  const found = await stat(resolvePath(root, text.trim())).catch(() => undefined);
  if (found === undefined) return l10n.t('No such file: {0}', text.trim());
  if (!found.isFile()) return l10n.t('Not a file: {0}', text.trim());
  return undefined;
}

/** The distinct evidence commands of the rubric, in rubric order. */
export function evidenceCommands(rubric: readonly RubricDimension[]): string[] {
  return [...new Set(rubric.map((d) => d.evidence_command).filter((c) => c.trim() !== ''))];
}

export async function askVerification(
  prompter: Prompter,
  root: string,
  rubric: readonly RubricDimension[],
  trusted: boolean,
  position: StepPosition,
): Promise<Answer<VerificationChoice>> {
  const commands = evidenceCommands(rubric);
  const items: PickItem<'file' | 'run'>[] = [
    {
      label: l10n.t('From a file…'),
      description: l10n.t('a saved test or benchmark transcript'),
      value: 'file',
    },
  ];
  if (trusted && commands.length > 0) {
    items.push({
      label: l10n.t("Run the rubric's evidence commands"),
      description: l10n.t('{0} command(s), in a terminal you can watch', commands.length),
      value: 'run',
    });
  }
  const source = await prompter.pickOne({
    id: 'brief.verificationSource',
    title: l10n.t('Assemble Critic Brief: verification output'),
    placeholder: l10n.t('Where does the verification output come from?'),
    items,
    ...position,
  });
  if (source === undefined || source === BACK) return source;
  if (source === 'run') {
    const confirmed = await prompter.confirm({
      id: 'brief.confirmRun',
      title: l10n.t('Run {0} evidence command(s) from the contract in this workspace?', commands.length),
      detail: commands.map((c) => `$ ${c}`).join('\n'),
      confirmLabel: l10n.t('Run Commands'),
    });
    return confirmed ? { kind: 'run', commands } : undefined;
  }
  const path = await prompter.inputText({
    id: 'brief.verificationFile',
    title: l10n.t('Assemble Critic Brief: verification output file'),
    prompt: l10n.t('Path of the verification output, relative to the workspace folder'),
    placeholder: l10n.t('e.g. .loop/evidence/test-run.txt'),
    validate: (text) => fileProblem(root, text),
    ...position,
  });
  if (path === undefined || path === BACK) return path;
  return { kind: 'file', path: path.trim() };
}

/** The verification output as the engine's BriefInput: text, or why it could not be read. */
export async function readVerification(root: string, choice: VerificationChoice): Promise<BriefInput> {
  if (choice.kind === 'file') {
    // The CLI's cap on verification output, read in chunks without blocking the host.
    const path = resolvePath(root, choice.path);
    const read = await readTextFileAsync(path, INPUT_LIMIT);
    if (read.kind === 'ok') return { path, text: read.text };
    return { path, error: read.kind === 'absent' ? 'no such file' : read.reason };
  }
  const run = await runEvidenceCommands(choice.commands, root);
  return { path: 'evidence commands (terminal transcript)', text: run.transcript };
}
