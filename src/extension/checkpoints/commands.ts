// The checkpoint commands on an iteration of the Sessions tree: compare it with the previous
// iteration's checkpoint or with the workspace in VS Code's diff editor, and restore the
// workspace to it after a modal that lists the files that will change. None runs in an
// untrusted workspace (git reads repository config that can run programs).
import * as vscode from 'vscode';
import type { ExitCode } from '../../engine/refusal';
import { filesBetweenCheckpoints, repositoryTop } from '../../app/checkpoints/browse';
import type { Command } from '../commandManager';
import type { CommandDeps, CommandReport } from '../commands/deps';
import { nothingToDo, reportDone, reportRefusal, reportUntrusted } from '../commands/report';
import { runCheckpointCli } from './cli';
import { checkpointUri } from './documents';
import { placeOf } from './query';
import { checkpointTarget, type CheckpointTarget } from './target';

export interface CheckpointDeps extends CommandDeps {
  readonly extensionPath: string;
}

interface Opened {
  files: string[];
}

/** Refusal findings in the shape reportRefusal shows. */
function refused<P>(deps: CheckpointDeps, title: string, code: number, problems: string[]): CommandReport<P> {
  return reportRefusal(deps, title, {
    exitCode: code as ExitCode,
    findings: problems.map((message) => ({ message })),
  });
}

/** Opens one file in `vscode.diff`, several in the multi-file `vscode.changes` editor. */
async function openDiffs(
  title: string,
  files: readonly string[],
  left: (path: string) => vscode.Uri,
  right: (path: string) => vscode.Uri,
): Promise<void> {
  if (files.length === 1) {
    const path = files[0]!;
    await vscode.commands.executeCommand('vscode.diff', left(path), right(path), `${path} (${title})`);
    return;
  }
  await vscode.commands.executeCommand(
    'vscode.changes',
    title,
    files.map((path) => [right(path), left(path), right(path)]),
  );
}

abstract class CheckpointCommand<P> implements Command {
  abstract readonly id: string;
  protected abstract title(): string;
  protected abstract run(target: CheckpointTarget): Promise<CommandReport<P>>;

  constructor(protected readonly deps: CheckpointDeps) {}

  /** `loop-ledger checkpoint …` on the ledgers the window uses (the store's, on a store window). */
  protected cli(root: string, args: readonly string[]) {
    return runCheckpointCli(this.deps.extensionPath, root, args, this.deps.sessions.storeWrites(root));
  }

  async execute(arg?: unknown): Promise<CommandReport<P>> {
    if (!this.deps.trust.isTrusted) return reportUntrusted(this.deps, this.title());
    const target = checkpointTarget(arg);
    if ('refused' in target) return refused(this.deps, this.title(), 2, [`${target.refused}.`]);
    try {
      return await this.run(target);
    } catch (error) {
      return refused(this.deps, this.title(), 3, [(error as Error).message]);
    }
  }
}

export class CompareWithPreviousCommand extends CheckpointCommand<Opened> {
  readonly id = 'loopLedger.checkpoint.compareWithPrevious';
  protected title(): string {
    return vscode.l10n.t('Compare with Previous Iteration');
  }

  protected async run(t: CheckpointTarget): Promise<CommandReport<Opened>> {
    if (!t.previous)
      return nothingToDo(vscode.l10n.t('no earlier iteration of {0} has a checkpoint.', t.session));
    const from = t.previous.checkpoint;
    const place = placeOf(t.root, t.checkpoint.shadow);
    const files = await filesBetweenCheckpoints(place, from.commit, t.checkpoint.commit);
    if (files.length === 0)
      return nothingToDo(vscode.l10n.t('iterations {0} and {1} have the same files.', t.previous.n, t.n));
    const title = vscode.l10n.t('{0}: iteration {1} ↔ {2}', t.session, t.previous.n, t.n);
    await openDiffs(
      title,
      files,
      (p) => checkpointUri(t.root, from.commit, from.shadow, p),
      (p) => checkpointUri(t.root, t.checkpoint.commit, t.checkpoint.shadow, p),
    );
    return { status: 'done', payload: { files } };
  }
}

export class CompareWithWorkspaceCommand extends CheckpointCommand<Opened> {
  readonly id = 'loopLedger.checkpoint.compareWithWorkspace';
  protected title(): string {
    return vscode.l10n.t('Compare with Workspace');
  }

  protected async run(t: CheckpointTarget): Promise<CommandReport<Opened>> {
    // The files a restore would change are exactly those that differ (untracked ones included);
    // --force only lifts the refusals about HEAD and staged changes, which a dry run never acts on.
    const plan = await this.cli(t.root, [
      'restore',
      '--session',
      t.session,
      '--iteration',
      String(t.n),
      '--dry-run',
      '--force',
    ]);
    if (plan.code !== 0) return refused(this.deps, this.title(), plan.code, plan.problems);
    const files = [...strings(plan.json.write), ...strings(plan.json.remove)].sort();
    if (files.length === 0)
      return nothingToDo(vscode.l10n.t('the workspace has the files of iteration {0}.', t.n));
    const top = t.checkpoint.shadow ? t.root : await repositoryTop(t.root);
    const title = vscode.l10n.t('{0}: iteration {1} ↔ workspace', t.session, t.n);
    await openDiffs(
      title,
      files,
      (p) => checkpointUri(t.root, t.checkpoint.commit, t.checkpoint.shadow, p),
      (p) => vscode.Uri.joinPath(vscode.Uri.file(top), ...p.split('/')),
    );
    return { status: 'done', payload: { files } };
  }
}

export class RestoreCheckpointCommand extends CheckpointCommand<Record<string, unknown>> {
  readonly id = 'loopLedger.checkpoint.restore';
  protected title(): string {
    return vscode.l10n.t('Restore Workspace to This Iteration');
  }

  protected async run(t: CheckpointTarget): Promise<CommandReport<Record<string, unknown>>> {
    const args = ['restore', '--session', t.session, '--iteration', String(t.n)];
    const plan = await this.cli(t.root, [...args, '--dry-run']);
    if (plan.code !== 0) return refused(this.deps, this.title(), plan.code, plan.problems);
    const write = strings(plan.json.write);
    const remove = strings(plan.json.remove);
    if (write.length + remove.length === 0)
      return nothingToDo(vscode.l10n.t('the workspace has the files of iteration {0}.', t.n));
    const listed = [
      ...write.map((p) => vscode.l10n.t('write {0}', p)),
      ...remove.map((p) => vscode.l10n.t('remove {0}', p)),
    ];
    const shown =
      listed.length > 20
        ? [...listed.slice(0, 20), vscode.l10n.t('…and {0} more', listed.length - 20)]
        : listed;
    const confirmed = await this.deps.prompter.current.confirm({
      id: 'checkpoint.restore',
      title: vscode.l10n.t('Restore the workspace of {0} to iteration {1}?', t.session, t.n),
      detail: [
        ...shown,
        '',
        vscode.l10n.t(
          'A checkpoint of the workspace as it is now is taken first and recorded as a pause iteration, so the restore can be undone.',
        ),
      ].join('\n'),
      confirmLabel: vscode.l10n.t('Restore'),
    });
    if (!confirmed) return { status: 'cancelled' };
    const done = await this.cli(t.root, args);
    if (done.code !== 0) return refused(this.deps, this.title(), done.code, done.problems);
    await this.deps.sessions.refreshAll();
    return reportDone(
      this.deps,
      vscode.l10n.t(
        'restored {0} to iteration {1}: {2} file(s) written, {3} removed (recorded as pause iteration {4}).',
        t.session,
        t.n,
        write.length,
        remove.length,
        String(done.json.recorded ?? '?'),
      ),
      done.json,
    );
  }
}

function strings(value: unknown): string[] {
  return Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string') : [];
}
