// Where in the text a finding belongs. The engine reports a JSON path; jsonc-parser turns it
// into offsets. No `vscode` here, so the rule is plain data in, plain data out.
import { findNodeAtLocation, type Node } from 'jsonc-parser';

export interface Span {
  offset: number;
  length: number;
}

/** Findings about a key itself (it should not be there): the key is marked, not its value. */
const KEY_FINDINGS = new Set(['unknown-field', 'unknown-key']);

/**
 * The span of the offending key or value. A finding about something absent (a missing field or
 * key) has no node of its own: it is marked on the opening brace of the object that lacks it.
 */
export function findingSpan(tree: Node | undefined, path: readonly (string | number)[], code: string): Span {
  if (!tree) return { offset: 0, length: 0 };
  const node = findNodeAtLocation(tree, [...path]);
  if (node) {
    const key = node.parent?.type === 'property' ? node.parent.children?.[0] : undefined;
    const marked = KEY_FINDINGS.has(code) && key ? key : node;
    return { offset: marked.offset, length: marked.length };
  }
  for (let depth = path.length - 1; depth >= 0; depth--) {
    const ancestor = findNodeAtLocation(tree, path.slice(0, depth));
    if (ancestor) return { offset: ancestor.offset, length: 1 };
  }
  return { offset: tree.offset, length: 1 };
}
