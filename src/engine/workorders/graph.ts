// `compile build-graph`: units and their edges → strongly connected components; a 2-unit cycle
// within one acceptance criterion collapses into one unit, anything bigger halts. The output is
// in input order on purpose — the loop uses a ready queue, never a topological order.
import { isObject } from './jq';

export interface GraphUnit {
  id: string;
  members: string[];
  collapsed_scc: boolean;
  ac: unknown;
  blocked_by: string[];
}

export type GraphResult =
  | { ok: true; acyclic: true; units: GraphUnit[]; collapsed: number; warnings: string[] }
  | { ok: false; halt_reason: string; units: []; collapsed: 0; acyclic: false; warnings: string[] };

const halt = (reason: string, warnings: string[]): GraphResult => ({
  ok: false,
  halt_reason: reason,
  units: [],
  collapsed: 0,
  acyclic: false,
  warnings,
});

export function buildGraph(input: unknown): GraphResult {
  const units = isObject(input) ? (input.units ?? []) : [];
  if (!Array.isArray(units)) return halt('malformed_units_field:not_a_list', []);
  const warnings: string[] = [];
  const ids: string[] = [];
  const ac = new Map<string, unknown>();
  for (const u of units) {
    if (!isObject(u)) {
      warnings.push('non_object_unit_skipped');
      continue;
    }
    if (typeof u.id !== 'string' || u.id === '') {
      warnings.push('unit_missing_id_skipped');
      continue;
    }
    if (ac.has(u.id)) return halt(`duplicate_unit_id:${u.id}`, warnings);
    ids.push(u.id);
    ac.set(u.id, u.ac ?? null);
  }
  const idSet = new Set(ids);
  const adj = new Map<string, string[]>(ids.map((id) => [id, []]));
  const edges = new Set<string>();
  const edgeList: [string, string][] = [];
  const selfLoops: string[] = [];
  const addEdge = (a: unknown, b: unknown): void => {
    if (typeof a !== 'string' || typeof b !== 'string' || !idSet.has(a) || !idSet.has(b)) {
      warnings.push(`dangling_edge:${String(a)}->${String(b)}`);
      return;
    }
    const key = JSON.stringify([a, b]);
    if (edges.has(key)) return;
    edges.add(key);
    edgeList.push([a, b]);
    adj.get(a)?.push(b);
  };
  for (const u of units) {
    if (!isObject(u) || typeof u.id !== 'string' || !idSet.has(u.id)) continue;
    for (const field of ['blocked_by', 'blocks']) {
      const value = u[field];
      if (value !== undefined && value !== null && !Array.isArray(value))
        return halt(`malformed_edge_field:${u.id}:${field}`, warnings);
    }
    for (const v of (u.blocked_by as unknown[] | null) ?? []) {
      if (v === u.id) selfLoops.push(u.id);
      else addEdge(v, u.id);
    }
    for (const w of (u.blocks as unknown[] | null) ?? []) {
      if (w === u.id) selfLoops.push(u.id);
      else addEdge(u.id, w);
    }
  }
  if (selfLoops.length > 0) return halt(`self_dependency:${[...new Set(selfLoops)].sort()[0]}`, warnings);
  const components = tarjan(ids, adj);
  const componentOf = new Map<string, string[]>();
  for (const comp of components) for (const n of comp) componentOf.set(n, comp);
  const order = new Map(ids.map((id, i) => [id, i]));
  const out: (GraphUnit & { first: number })[] = [];
  let collapsed = 0;
  for (const id of ids) {
    const comp = componentOf.get(id) as string[];
    const first = comp.reduce((a, b) => ((order.get(a) as number) <= (order.get(b) as number) ? a : b));
    if (id !== first) continue;
    const members = [...comp].sort();
    const rep = members[0] ?? id;
    let isCollapsed = false;
    if (comp.length > 1) {
      const acs = new Set(comp.map((m) => JSON.stringify(ac.get(m) ?? null)));
      if (comp.length > 2)
        return halt(`uncollapsible_cycle:size_${comp.length}_exceeds_bound:${members.join(',')}`, warnings);
      if (acs.size > 1)
        return halt(`uncollapsible_cycle:spans_${acs.size}_acs:${members.join(',')}`, warnings);
      isCollapsed = true;
      collapsed += 1;
    }
    out.push({
      id: rep,
      members,
      collapsed_scc: isCollapsed,
      ac: ac.get(rep) ?? null,
      blocked_by: [],
      first: order.get(first) as number,
    });
  }
  const repOf = new Map<string, string>();
  for (const u of out) for (const m of u.members) repOf.set(m, u.id);
  const blocked = new Map<string, Set<string>>(out.map((u) => [u.id, new Set()]));
  for (const [a, b] of edgeList) {
    const ra = repOf.get(a);
    const rb = repOf.get(b);
    if (ra === undefined || rb === undefined || ra === rb) continue;
    blocked.get(rb)?.add(ra);
  }
  out.sort((x, y) => x.first - y.first);
  return {
    ok: true,
    acyclic: true,
    units: out.map(({ id, members, collapsed_scc, ac: a }) => ({
      id,
      members,
      collapsed_scc,
      ac: a,
      blocked_by: [...(blocked.get(id) ?? [])].sort(),
    })),
    collapsed,
    warnings,
  };
}

/** Iterative Tarjan (no recursion-depth surprises on a long chain). */
function tarjan(ids: string[], adj: Map<string, string[]>): string[][] {
  let counter = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const onStack = new Set<string>();
  const stack: string[] = [];
  const comps: string[][] = [];
  for (const start of ids) {
    if (index.has(start)) continue;
    const work: [string, number][] = [[start, 0]];
    while (work.length > 0) {
      const top = work[work.length - 1];
      if (!top) break;
      const [node, pi] = top;
      if (pi === 0 && !index.has(node)) {
        index.set(node, counter);
        low.set(node, counter);
        counter += 1;
        stack.push(node);
        onStack.add(node);
      }
      const neighbours = adj.get(node) ?? [];
      let recurse = false;
      for (let i = pi; i < neighbours.length; i += 1) {
        const w = neighbours[i] ?? node;
        if (!index.has(w)) {
          top[1] = i + 1;
          work.push([w, 0]);
          recurse = true;
          break;
        } else if (onStack.has(w)) low.set(node, Math.min(low.get(node) as number, index.get(w) as number));
      }
      if (recurse) continue;
      top[1] = neighbours.length;
      if (low.get(node) === index.get(node)) {
        const comp: string[] = [];
        for (;;) {
          const w = stack.pop() as string;
          onStack.delete(w);
          comp.push(w);
          if (w === node) break;
        }
        comps.push(comp);
      }
      work.pop();
      if (work.length > 0) {
        const parent = work[work.length - 1]?.[0] ?? node;
        low.set(parent, Math.min(low.get(parent) as number, low.get(node) as number));
      }
    }
  }
  return comps;
}
