// SVG elements built from data, every text through textContent (ledger texts never become
// markup). Colours come from classes in overview.css, which read VS Code's --vscode-charts-*
// variables, so light, dark and high-contrast themes need no code.
const NS = 'http://www.w3.org/2000/svg';

type Attrs = Record<string, string | number | undefined>;

export function s<K extends keyof SVGElementTagNameMap>(
  tag: K,
  attrs: Attrs = {},
  ...children: (Node | string)[]
): SVGElementTagNameMap[K] {
  const el = document.createElementNS(NS, tag);
  for (const [k, v] of Object.entries(attrs)) if (v !== undefined) el.setAttribute(k, String(v));
  for (const c of children) el.appendChild(typeof c === 'string' ? document.createTextNode(c) : c);
  return el;
}

/** A number short enough for an axis label. */
export function short(value: number): string {
  if (!Number.isFinite(value)) return String(value);
  const abs = Math.abs(value);
  if (abs >= 1e6) return `${(value / 1e6).toFixed(1)}M`;
  if (abs >= 1e4) return `${(value / 1e3).toFixed(0)}k`;
  if (Number.isInteger(value)) return String(value);
  return abs >= 100
    ? value.toFixed(0)
    : abs >= 1
      ? value.toFixed(2).replace(/\.?0+$/, '')
      : value.toPrecision(2);
}
