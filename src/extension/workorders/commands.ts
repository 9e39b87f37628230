// The Work Orders view's write commands: only legal transitions are offered, a HALT asks for its
// reason, clearing a HALT asks first (human only; the marker is kept), the kill switch toggles.
// All refuse in an untrusted workspace (the view stays readable).
import * as vscode from 'vscode';
import { legalTargets } from '../../engine/workorders/status';
import type { Command } from '../commandManager';
import type { PrompterSlot } from '../input';
import { TrustGate } from '../workspace/trust';
import { clearWorkOrderHalt, haltWorkOrder, setKillSwitch } from '../../app/workorders/admin';
import { transition } from '../../app/workorders/steps';
import { isoUtcSeconds } from '../../engine/utc-iso';
import type { WoNode, WorkOrdersTreeProvider } from './treeProvider';
import { sentence } from '../findingWords';

export interface WoCommandDeps {
  prompter: PrompterSlot;
  provider: WorkOrdersTreeProvider;
  trust: TrustGate;
}

type WoItemNode = Extract<WoNode, { kind: 'wo' }>;
type TaskNode = Extract<WoNode, { kind: 'task' }>;

export function refuseUntrusted(deps: Pick<WoCommandDeps, 'trust'>, action: string): boolean {
  if (deps.trust.isTrusted) return false;
  void vscode.window.showWarningMessage(
    vscode.l10n.t(
      'Loop Ledger: {0} changes work-order files, and this workspace is not trusted; the Work Orders view is read-only here.',
      action,
    ),
  );
  return true;
}

/** The node a context menu passed, or a pick among the loaded work orders. */
async function workOrderArg(
  deps: WoCommandDeps,
  arg: unknown,
  title: string,
): Promise<WoItemNode | undefined> {
  if (typeof arg === 'object' && arg !== null && (arg as WoNode).kind === 'wo') return arg as WoItemNode;
  const tasks = await deps.provider.load();
  const items = tasks.flatMap((task) =>
    task.workOrders.map((wo) => ({
      label: `${wo.id} ${wo.title}`,
      description: `${task.name} · ${wo.row.status}`,
      value: { kind: 'wo' as const, task, wo },
    })),
  );
  const picked = await deps.prompter.current.pickOne({ id: 'wo.pick', title, items });
  return typeof picked === 'object' ? picked : undefined;
}

async function taskArg(deps: WoCommandDeps, arg: unknown, title: string): Promise<TaskNode | undefined> {
  if (typeof arg === 'object' && arg !== null && (arg as WoNode).kind === 'task') return arg as TaskNode;
  const tasks = await deps.provider.load();
  const picked = await deps.prompter.current.pickOne({
    id: 'wo.task',
    title,
    items: tasks.map((task) => ({
      label: task.name,
      description: task.path,
      value: { kind: 'task' as const, task },
    })),
  });
  return typeof picked === 'object' ? picked : undefined;
}

export class SetWorkOrderStatusCommand implements Command {
  readonly id = 'loopLedger.wo.setStatus';
  constructor(private readonly deps: WoCommandDeps) {}

  async execute(arg?: unknown): Promise<string | undefined> {
    if (refuseUntrusted(this.deps, vscode.l10n.t('Set Status'))) return undefined;
    const node = await workOrderArg(this.deps, arg, vscode.l10n.t('Set the status of a work order'));
    if (!node) return undefined;
    if (node.wo.row.terminal) {
      void vscode.window.showWarningMessage(
        vscode.l10n.t(
          'Loop Ledger: {0} is TERMINAL ({1}); clear its HALT first.',
          node.wo.id,
          String(node.wo.row.halt_reason),
        ),
      );
      return undefined;
    }
    const targets = legalTargets(node.wo.row.status);
    const to = await this.deps.prompter.current.pickOne({
      id: 'wo.status',
      title: vscode.l10n.t('{0}: {1} →', node.wo.id, node.wo.row.status),
      items: targets.map((t) => ({ label: t, value: t })),
    });
    if (typeof to !== 'string') return undefined;
    const result = transition(node.wo.path, to);
    if (!result.ok)
      void vscode.window.showErrorMessage(
        vscode.l10n.t(
          'Loop Ledger: {0} stays {1}: {2}',
          node.wo.id,
          node.wo.row.status,
          sentence(result.reason),
        ),
      );
    this.deps.provider.refresh();
    return result.ok ? to : undefined;
  }
}

export class HaltWorkOrderCommand implements Command {
  readonly id = 'loopLedger.wo.halt';
  constructor(private readonly deps: WoCommandDeps) {}

  async execute(arg?: unknown): Promise<boolean> {
    if (refuseUntrusted(this.deps, vscode.l10n.t('Halt'))) return false;
    const node = await workOrderArg(this.deps, arg, vscode.l10n.t('Halt a work order'));
    if (!node || node.wo.row.terminal) return false;
    const reason = await this.deps.prompter.current.inputText({
      id: 'wo.haltReason',
      title: vscode.l10n.t('Halt {0}', node.wo.id),
      prompt: vscode.l10n.t(
        'Why? (the reason goes on the HALT marker; the loop will not touch it until a person clears it)',
      ),
      validate: (t) =>
        /^[A-Za-z0-9_:.-]{1,120}$/.test(t.trim())
          ? undefined
          : vscode.l10n.t('a short reason: letters, digits, _ : . -'),
    });
    if (typeof reason !== 'string') return false;
    haltWorkOrder(node.task.dir, node.wo.id, reason.trim(), isoUtcSeconds(Date.now()), {
      extra: { by: 'vscode' },
    });
    this.deps.provider.refresh();
    return true;
  }
}

export class ClearWorkOrderHaltCommand implements Command {
  readonly id = 'loopLedger.wo.clearHalt';
  constructor(private readonly deps: WoCommandDeps) {}

  async execute(arg?: unknown): Promise<string | null | undefined> {
    if (refuseUntrusted(this.deps, vscode.l10n.t('Clear HALT'))) return undefined;
    const node = await workOrderArg(this.deps, arg, vscode.l10n.t('Clear the HALT of a work order'));
    if (!node || !node.wo.row.terminal) return undefined;
    const ok = await this.deps.prompter.current.confirm({
      id: 'wo.clearHalt',
      title: vscode.l10n.t(
        'Clear the HALT of {0} ({1})?',
        node.wo.id,
        String(node.wo.row.halt_reason ?? vscode.l10n.t('halted')),
      ),
      detail: vscode.l10n.t(
        'The loop may dispatch it again on the next run. The marker is kept as a cleared copy beside it.',
      ),
      confirmLabel: vscode.l10n.t('Clear HALT'),
    });
    if (!ok) return undefined;
    const result = clearWorkOrderHalt(node.task.dir, node.wo.id, isoUtcSeconds(Date.now()));
    this.deps.provider.refresh();
    return result.ok ? result.cleared : null;
  }
}

export class ToggleKillSwitchCommand implements Command {
  readonly id = 'loopLedger.wo.toggleKill';
  constructor(private readonly deps: WoCommandDeps) {}

  async execute(arg?: unknown): Promise<boolean | undefined> {
    if (refuseUntrusted(this.deps, vscode.l10n.t('the kill switch'))) return undefined;
    const node = await taskArg(this.deps, arg, vscode.l10n.t('Toggle the kill switch of a task'));
    if (!node) return undefined;
    setKillSwitch(node.task.path, !node.task.killed, isoUtcSeconds(Date.now()));
    this.deps.provider.refresh();
    return !node.task.killed;
  }
}

export class RefreshWorkOrdersCommand implements Command {
  readonly id = 'loopLedger.wo.refresh';
  constructor(private readonly provider: WorkOrdersTreeProvider) {}
  execute(): void {
    this.provider.refresh();
  }
}

export { taskArg };
