// A small element builder: every text goes in through textContent, never as HTML, so packet
// content (diffs, verification output, paths) cannot become markup. The one exception is the
// diff renderer's output, which escapes what it renders (see diff-view.ts).

type Child = Node | string | null | undefined | false;
type Attributes = Record<string, string | number | boolean | null | undefined>;

export function h<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  attributes?: Attributes,
  ...children: Child[]
): HTMLElementTagNameMap[K];
export function h(tag: string, attributes?: Attributes, ...children: Child[]): HTMLElement;
export function h(tag: string, attributes: Attributes = {}, ...children: Child[]): HTMLElement {
  const element = document.createElement(tag);
  for (const [name, value] of Object.entries(attributes)) {
    if (value === null || value === undefined || value === false) continue;
    element.setAttribute(name, value === true ? '' : String(value));
  }
  append(element, children);
  return element;
}

export function append(parent: Node, children: Child[]): void {
  for (const child of children) {
    if (child === null || child === undefined || child === false) continue;
    parent.appendChild(typeof child === 'string' ? document.createTextNode(child) : child);
  }
}

/** A titled section of the side column; `id` lets the header link to it. */
export function section(id: string, title: string, ...children: Child[]): HTMLElement {
  const headingId = `${id}-title`;
  return h(
    'section',
    { class: 'block', id, 'aria-labelledby': headingId },
    h('h2', { id: headingId }, title),
    ...children,
  );
}
