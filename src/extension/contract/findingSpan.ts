// Where in the text each finding belongs. The engine reports JSON paths; this turns them into
// offsets in one walk of the jsonc tree. (One `findNodeAtLocation` per finding scans an object's
// properties again for every finding: quadratic, ~87 s of CPU for a 5 MB contract.) No `vscode`
// here, so the rule is plain data in, plain data out.
import type { Node } from 'jsonc-parser';

export interface Span {
  offset: number;
  length: number;
}

export interface Locatable {
  readonly path: readonly (string | number)[];
  readonly code: string;
}

/** Findings about a key itself (it should not be there): the key is marked, not its value. */
const KEY_FINDINGS = new Set(['unknown-field', 'unknown-key']);

/** The wanted paths as a trie: one branch per path segment, shared by paths with a common prefix. */
interface Trie {
  readonly children: Map<string | number, Trie>;
  node?: Node;
}

/**
 * The span of each finding's offending key or value, in order. A finding about something absent
 * (a missing field or key) has no node of its own: it is marked on the opening brace of the
 * nearest object that exists on its path.
 */
export function locateFindings(tree: Node | undefined, findings: readonly Locatable[]): Span[] {
  if (!tree) return findings.map(() => ({ offset: 0, length: 0 }));
  const root: Trie = { children: new Map() };
  const branches = findings.map(({ path }) => {
    const branch = [root];
    for (const segment of path) {
      const here = branch[branch.length - 1]!;
      let next = here.children.get(segment);
      if (!next) here.children.set(segment, (next = { children: new Map() }));
      branch.push(next);
    }
    return branch;
  });
  attachNodes(tree, root);
  return findings.map(({ code }, i) => {
    const branch = branches[i]!;
    const node = branch[branch.length - 1]!.node;
    if (node) {
      const key = node.parent?.type === 'property' ? node.parent.children?.[0] : undefined;
      const marked = KEY_FINDINGS.has(code) && key ? key : node;
      return { offset: marked.offset, length: marked.length };
    }
    for (let depth = branch.length - 2; depth >= 0; depth--) {
      const ancestor = branch[depth]!.node;
      if (ancestor) return { offset: ancestor.offset, length: 1 };
    }
    return { offset: tree.offset, length: 1 };
  });
}

/**
 * Sets `node` on every trie entry whose path exists in the tree, in one descent that enters
 * only wanted branches. An object's properties are scanned once, however many findings point
 * into it. A repeated key resolves to its first occurrence, as findNodeAtLocation does.
 * Iterative, so a deeply nested document cannot exhaust the stack.
 */
function attachNodes(tree: Node, root: Trie): void {
  const stack: [Node, Trie][] = [[tree, root]];
  while (stack.length > 0) {
    const [node, trie] = stack.pop()!;
    trie.node = node;
    if (trie.children.size === 0) continue;
    const children = node.children ?? [];
    if (node.type === 'object') {
      const named = new Set<string>();
      for (const property of children) {
        const [name, value] = property.children ?? [];
        if (name === undefined || value === undefined || typeof name.value !== 'string') continue;
        if (named.has(name.value)) continue; // a repeated key: the first one counts
        named.add(name.value);
        const next = trie.children.get(name.value);
        if (next) stack.push([value, next]);
      }
    } else if (node.type === 'array') {
      for (const [segment, next] of trie.children) {
        const child = typeof segment === 'number' ? children[segment] : undefined;
        if (child) stack.push([child, next]);
      }
    }
  }
}
