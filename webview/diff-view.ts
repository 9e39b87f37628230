// The left column: a file list, then one collapsible section per file whose side-by-side diff is
// rendered by diff2html the first time it is expanded. Rendering lazily keeps a 200-file diff
// interactive at once; diff2html escapes the diff text it renders and emits no style attributes,
// so its HTML is safe under the panel's CSP (no 'unsafe-inline').
import { html as renderDiffHtml } from 'diff2html';
import { h } from './dom';
import type { BriefViewModel, FileView } from './view-model';
import { w } from './words';

export interface DiffViewActions {
  openInDiffEditor(path: string): void;
}

const CHANGE_LABEL: Record<FileView['change'], string> = {
  modified: 'M',
  added: 'A',
  deleted: 'D',
  renamed: 'R',
  binary: 'B',
};

function stats(file: FileView): HTMLElement {
  return h(
    'span',
    { class: 'stats', 'aria-label': w('{0} added, {1} removed', file.additions, file.deletions) },
    h('span', { class: 'added' }, `+${file.additions}`),
    ' ',
    h('span', { class: 'removed' }, `−${file.deletions}`),
  );
}

function undeclaredBadge(file: FileView): HTMLElement | null {
  return file.undeclared
    ? h('span', { class: 'badge undeclared', title: w('Not declared in the change scope') }, w('undeclared'))
    : null;
}

function fileList(model: BriefViewModel, expand: (file: FileView) => void): HTMLElement {
  const items = model.files.map((file) => {
    const link = h(
      'a',
      {
        href: `#${file.anchor}`,
        class: 'file-link',
        title: file.oldPath ? `${file.oldPath} → ${file.path}` : file.path,
      },
      h(
        'span',
        { class: `change change-${file.change}`, 'aria-label': w(file.change) },
        CHANGE_LABEL[file.change],
      ),
      ' ',
      h('span', { class: 'path' }, file.path),
    );
    link.addEventListener('click', (event) => {
      event.preventDefault();
      expand(file);
      document.getElementById(file.anchor)?.scrollIntoView({ block: 'start' });
      document.getElementById(`${file.anchor}-toggle`)?.focus({ preventScroll: true });
    });
    return h('li', {}, link, ' ', stats(file), ' ', undeclaredBadge(file));
  });
  return h('nav', { class: 'file-list', 'aria-label': w('Changed files') }, h('ol', {}, ...items));
}

class FileSection {
  readonly element: HTMLElement;
  private readonly toggle: HTMLButtonElement;
  private readonly body: HTMLElement;
  private rendered = false;

  constructor(
    readonly file: FileView,
    actions: DiffViewActions,
  ) {
    this.toggle = h(
      'button',
      {
        type: 'button',
        class: 'toggle',
        id: `${file.anchor}-toggle`,
        'aria-controls': `${file.anchor}-body`,
        'aria-expanded': 'false',
      },
      h('span', { class: 'chevron', 'aria-hidden': 'true' }),
      h('span', { class: 'path' }, file.oldPath ? `${file.oldPath} → ${file.path}` : file.path),
    );
    this.toggle.addEventListener('click', () => this.setExpanded(!this.expanded));
    const open = h(
      'vscode-button',
      { secondary: true, class: 'open-diff', title: w("Open {0} in VS Code's diff editor", file.path) },
      w('Open in diff editor'),
    );
    open.addEventListener('click', () => actions.openInDiffEditor(file.path));
    this.body = h('div', { class: 'file-body', id: `${file.anchor}-body`, hidden: true });
    this.element = h(
      'section',
      { class: 'file', id: file.anchor, 'data-path': file.path },
      h('header', { class: 'file-header' }, this.toggle, stats(file), undeclaredBadge(file), open),
      this.body,
    );
    if (file.initiallyExpanded) this.setExpanded(true);
  }

  get expanded(): boolean {
    return this.toggle.getAttribute('aria-expanded') === 'true';
  }

  setExpanded(expanded: boolean): void {
    if (expanded && !this.rendered) {
      this.body.innerHTML = renderDiffHtml(this.file.patch, {
        outputFormat: 'side-by-side',
        drawFileList: false,
        matching: 'lines',
      });
      this.rendered = true;
      // Each side scrolls sideways; a keyboard user must be able to reach and scroll it too.
      this.body.querySelectorAll<HTMLElement>('.d2h-file-side-diff').forEach((side, index) => {
        side.tabIndex = 0;
        side.setAttribute('role', 'region');
        side.setAttribute('aria-label', w(index === 0 ? '{0}, before' : '{0}, after', this.file.path));
      });
    }
    this.toggle.setAttribute('aria-expanded', String(expanded));
    this.body.hidden = !expanded;
  }
}

export function diffView(model: BriefViewModel, actions: DiffViewActions): HTMLElement {
  const sections = model.files.map((file) => new FileSection(file, actions));
  const byAnchor = new Map(sections.map((s) => [s.file.anchor, s]));
  // Long lines scroll sideways in each column by default; "Wrap lines" folds them instead, for a
  // narrow panel. aria-pressed carries the state for screen readers and the tests.
  const wrap = h(
    'vscode-button',
    {
      secondary: true,
      id: 'wrap-lines',
      'aria-pressed': 'false',
      title: w('Wrap long lines instead of scrolling'),
    },
    w('Wrap lines'),
  );
  const expandAll = h('vscode-button', { secondary: true }, w('Expand all'));
  const collapseAll = h('vscode-button', { secondary: true }, w('Collapse all'));
  expandAll.addEventListener('click', () => sections.forEach((s) => s.setExpanded(true)));
  collapseAll.addEventListener('click', () => sections.forEach((s) => s.setExpanded(false)));
  const { files, additions, deletions } = model.totals;
  const column = h(
    'div',
    { class: 'diff-column' },
    h(
      'div',
      { class: 'diff-toolbar' },
      h('h2', {}, w('Diff — {0} file(s), +{1} −{2}', files, additions, deletions)),
      h('span', { class: 'spacer' }),
      wrap,
      expandAll,
      collapseAll,
    ),
    fileList(model, (file) => byAnchor.get(file.anchor)?.setExpanded(true)),
    h('div', { class: 'files' }, ...sections.map((s) => s.element)),
  );
  wrap.addEventListener('click', () => {
    const wrapped = column.classList.toggle('wrap-lines');
    wrap.setAttribute('aria-pressed', String(wrapped));
  });
  return column;
}
