// The Work Orders view's words for dependencies: what a dependency row says about the work order
// it points at, and why a blocked work order waits — in words, never the engine's raw code
// (`deps_not_done:local:t#wo-01`). Pure (no vscode), so unit tests read the words the tree shows.
import * as l10n from '@vscode/l10n';
import type { WorkOrder } from './model';

/** A status as a person reads it ("in progress", not `in_progress`). */
export function statusWords(status: string): string {
  switch (status) {
    case 'ready':
      return l10n.t('ready');
    case 'blocked':
      return l10n.t('blocked');
    case 'in_progress':
      return l10n.t('in progress');
    case 'done':
      return l10n.t('done');
    case 'needs_rework':
      return l10n.t('needs rework');
    default:
      return l10n.t('unknown status {0}', status);
  }
}

function haltReason(wo: WorkOrder): string {
  return String(wo.row.halt_reason ?? l10n.t('halted'));
}

/**
 * A dependency row's description. A TERMINAL dependency is never "ready": it will not be built
 * again until a person clears it, so the work order under it stays blocked.
 */
export function dependencyDescription(dep: WorkOrder | undefined): string {
  if (!dep) return l10n.t('missing');
  if (dep.row.terminal)
    return l10n.t('TERMINAL ({0}): blocks this work order until cleared', haltReason(dep));
  return statusWords(dep.row.status);
}

/** The codicon of a dependency row. */
export function dependencyIcon(dep: WorkOrder | undefined): string {
  if (!dep) return 'question';
  if (dep.row.terminal) return 'error';
  return dep.row.status === 'done' ? 'pass' : 'arrow-small-right';
}

/** Why a blocked work order waits, from the engine's code and its siblings' state. */
export function waitsWords(code: string, siblings: readonly WorkOrder[]): string {
  const colon = code.indexOf(':');
  const kind = colon < 0 ? code : code.slice(0, colon);
  const ref = colon < 0 ? '' : code.slice(colon + 1);
  const id = ref.slice(ref.lastIndexOf('#') + 1);
  if (kind === 'deps_not_done') {
    const dep = siblings.find((w) => w.id === id);
    if (!dep) return l10n.t('waits for {0} to be done', id);
    if (dep.row.terminal)
      return l10n.t(
        'waits for {0}, which is TERMINAL ({1}): nothing runs until a person clears {0}',
        id,
        haltReason(dep),
      );
    return l10n.t('waits for {0} to be done (it is {1})', id, statusWords(dep.row.status));
  }
  if (kind === 'deps_unresolvable')
    return l10n.t('waits for {0}, which names no single work-order file here', ref);
  return l10n.t('waits: {0}', code);
}
