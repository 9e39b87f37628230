// The Work Orders view: task → work order (status icon, TERMINAL badge and HALT reason,
// attempts n/cap, review and critique verdicts, the recovery row in words) → its dependencies,
// and, for a blocked one, why it waits.
import { stat } from 'node:fs/promises';
import { join } from 'node:path';
import * as vscode from 'vscode';
import { legalTargets } from '../../engine/workorders/status';
import { dependencyDescription, dependencyIcon, waitsWords } from './depWords';
import { loadTask, taskPathsOf, type Task, type WorkOrder } from './model';

export type WoNode =
  | { kind: 'task'; task: Task }
  | { kind: 'wo'; task: Task; wo: WorkOrder }
  | { kind: 'dep'; task: Task; wo: WorkOrder; dep: string }
  | { kind: 'why'; wo: WorkOrder; text: string };

const STATUS_ICON: Record<string, string> = {
  ready: 'circle-outline',
  blocked: 'lock',
  in_progress: 'sync',
  done: 'pass',
  needs_rework: 'debug-restart',
};

export class WorkOrdersTreeProvider implements vscode.TreeDataProvider<WoNode>, vscode.Disposable {
  private readonly changed = new vscode.EventEmitter<WoNode | undefined>();
  readonly onDidChangeTreeData = this.changed.event;
  private tasks: Task[] | undefined;
  private loading: Promise<Task[]> | undefined;
  /** Bumped by every refresh: a read that started before one must not be kept after it. */
  private generation = 0;
  /** Each task folder's and work-orders folder's mtime when the tasks were read. */
  private stamps = new Map<string, number>();

  constructor(
    private readonly cap: () => number,
    private readonly findWoFiles: () => Thenable<string[]>,
  ) {}

  /** Re-reads everything (the watcher debounces calls). */
  refresh(): void {
    this.generation += 1;
    this.tasks = undefined;
    this.loading = undefined;
    this.changed.fire(undefined);
  }

  /** The tasks as loaded now (tests and commands read them). */
  async load(): Promise<Task[]> {
    // File events can arrive late or be dropped (VS Code throttles its watcher under load): a
    // folder whose mtime moved since the read (a marker or sidecar added or removed) means the
    // cached tasks are stale.
    if (this.tasks && (await this.unchangedSinceRead())) return this.tasks;
    if (this.tasks) this.refresh();
    const generation = this.generation;
    this.loading ??= (async () => {
      const paths = taskPathsOf(await this.findWoFiles());
      const stamps = await folderStamps(paths.flatMap((path) => [path, join(path, 'work-orders')]));
      const tasks = await Promise.all(paths.map(loadTask));
      // The files changed while they were being read: that read is stale, read them again.
      if (generation !== this.generation) return this.load();
      this.stamps = stamps;
      this.tasks = tasks;
      return tasks;
    })();
    return this.loading;
  }

  private async unchangedSinceRead(): Promise<boolean> {
    const now = await folderStamps([...this.stamps.keys()]);
    return [...this.stamps].every(([path, mtimeMs]) => now.get(path) === mtimeMs);
  }

  async getChildren(node?: WoNode): Promise<WoNode[]> {
    if (!node) return (await this.load()).map((task) => ({ kind: 'task', task }));
    if (node.kind === 'task') return node.task.workOrders.map((wo) => ({ kind: 'wo', task: node.task, wo }));
    if (node.kind === 'wo') {
      const children: WoNode[] = node.wo.dependsOn.map((dep) => ({
        kind: 'dep',
        task: node.task,
        wo: node.wo,
        dep,
      }));
      if (node.wo.waitingOn)
        children.push({
          kind: 'why',
          wo: node.wo,
          text: waitsWords(node.wo.waitingOn, node.task.workOrders),
        });
      return children;
    }
    return [];
  }

  getTreeItem(node: WoNode): vscode.TreeItem {
    switch (node.kind) {
      case 'task': {
        const item = new vscode.TreeItem(node.task.name, vscode.TreeItemCollapsibleState.Expanded);
        const done = node.task.workOrders.filter((w) => w.row.status === 'done').length;
        const terminal = node.task.workOrders.filter((w) => w.row.terminal).length;
        item.description =
          vscode.l10n.t('{0}/{1} done', done, node.task.workOrders.length) +
          (terminal ? vscode.l10n.t(' · {0} TERMINAL', terminal) : '') +
          (node.task.killed ? vscode.l10n.t(' · KILL SWITCH ON') : '');
        item.contextValue = `woTask${node.task.killed ? ' +killed' : ''}`;
        item.iconPath = new vscode.ThemeIcon(node.task.killed ? 'debug-stop' : 'checklist');
        item.tooltip = node.task.path;
        return item;
      }
      case 'wo':
        return woItem(node.wo, this.cap(), node.task.workOrders);
      case 'dep': {
        const dep = node.task.workOrders.find((w) => w.id === node.dep);
        const item = new vscode.TreeItem(
          vscode.l10n.t('depends on {0}', node.dep),
          vscode.TreeItemCollapsibleState.None,
        );
        item.description = dependencyDescription(dep);
        item.iconPath = dep?.row.terminal
          ? new vscode.ThemeIcon(dependencyIcon(dep), new vscode.ThemeColor('errorForeground'))
          : new vscode.ThemeIcon(dependencyIcon(dep));
        item.contextValue = 'woDependency';
        return item;
      }
      case 'why': {
        const item = new vscode.TreeItem(node.text, vscode.TreeItemCollapsibleState.None);
        item.iconPath = new vscode.ThemeIcon('info');
        item.contextValue = 'woWhy';
        return item;
      }
    }
  }

  dispose(): void {
    this.changed.dispose();
  }
}

function woItem(wo: WorkOrder, cap: number, siblings: readonly WorkOrder[]): vscode.TreeItem {
  const children = wo.dependsOn.length > 0 || wo.waitingOn !== undefined;
  const item = new vscode.TreeItem(
    `${wo.id} ${wo.title}`,
    children ? vscode.TreeItemCollapsibleState.Collapsed : vscode.TreeItemCollapsibleState.None,
  );
  const parts = [
    wo.row.terminal
      ? vscode.l10n.t('TERMINAL: {0}', String(wo.row.halt_reason ?? vscode.l10n.t('halted')))
      : wo.row.status,
    `${wo.attempts}/${cap}`,
  ];
  if (wo.row.has_review) parts.push(vscode.l10n.t('review {0}', String(wo.row.review_verdict)));
  if (wo.row.has_critique) parts.push(vscode.l10n.t('critique {0}', wo.critiqueOverall));
  if (!wo.row.terminal && wo.row.status !== 'done') parts.push(wo.next);
  item.description = parts.join(' · ');
  item.iconPath = wo.row.terminal
    ? new vscode.ThemeIcon('error', new vscode.ThemeColor('errorForeground'))
    : new vscode.ThemeIcon(STATUS_ICON[wo.row.status] ?? 'question');
  const tooltip = new vscode.MarkdownString(undefined, true);
  tooltip.appendMarkdown(`**${wo.id}** — ${wo.title}\n\n`);
  tooltip.appendMarkdown(
    (wo.row.terminal
      ? vscode.l10n.t(
          '- status: `{0}` — **TERMINAL** ({1})',
          wo.row.status,
          String(wo.row.halt_reason ?? vscode.l10n.t('halted')),
        )
      : vscode.l10n.t('- status: `{0}`', wo.row.status)) + '\n',
  );
  tooltip.appendMarkdown(
    vscode.l10n.t(
      '- attempts: {0} of {1}\n- review: {2} · critique: {3}\n- next: {4}\n',
      wo.attempts,
      cap,
      String(wo.row.review_verdict),
      wo.critiqueOverall,
      wo.next,
    ),
  );
  if (wo.waitingOn) tooltip.appendMarkdown(`- ${waitsWords(wo.waitingOn, siblings)}\n`);
  item.tooltip = tooltip;
  item.resourceUri = vscode.Uri.file(wo.path);
  item.command = {
    command: 'vscode.open',
    title: vscode.l10n.t('Open Work Order'),
    arguments: [vscode.Uri.file(wo.path)],
  };
  const settable = !wo.row.terminal && legalTargets(wo.row.status).length > 0;
  item.contextValue = ['workOrder', wo.row.terminal ? '+terminal' : '+live', settable ? '+settable' : '']
    .filter(Boolean)
    .join(' ');
  return item;
}

/** Each folder's mtime (-1 when it is gone), read asynchronously. */
async function folderStamps(paths: string[]): Promise<Map<string, number>> {
  const entries = await Promise.all(
    paths.map(
      async (path) =>
        [
          path,
          await stat(path).then(
            (st) => st.mtimeMs,
            () => -1,
          ),
        ] as const,
    ),
  );
  return new Map(entries);
}
