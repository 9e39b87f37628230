// The buttons under an iteration's record when the host says it has a checkpoint (and the
// workspace is trusted): each posts one message; the host checks it and runs the Sessions tree's
// command of the same name (the diff editor, or the restore modal).
import type { CheckpointActionName } from '../../src/shared/overview-protocol';
import { h } from '../dom';
import { w } from './words';

export function checkpointButtons(
  n: number,
  run: (n: number, action: CheckpointActionName) => void,
): HTMLElement {
  const button = (action: CheckpointActionName, label: string) => {
    const b = h('button', { type: 'button', class: 'checkpoint-action', 'data-action': action }, label);
    b.addEventListener('click', () => run(n, action));
    return b;
  };
  return h(
    'section',
    { class: 'checkpoint-actions', 'aria-label': w('Checkpoint') },
    h('h3', {}, w('Checkpoint')),
    button('compareWithPrevious', w('Compare with Previous Iteration')),
    button('compareWithWorkspace', w('Compare with Workspace')),
    button('restore', `${w('Restore Workspace to This Iteration')}…`),
  );
}
