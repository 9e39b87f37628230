// The right column's reading part: the scope block first (the asks say to start there), then
// the rubric with its baseline, the verification output and the asks. Nothing the builder wrote
// about the change appears here: the packet carries none of it.
import { h, section } from './dom';
import type { BriefViewModel, RubricView } from './view-model';

function scopeBlock(model: BriefViewModel): HTMLElement {
  const { scope } = model;
  const badge = h(
    'span',
    { class: `badge provenance-${scope.provenance}` },
    scope.provenance === 'verified' ? 'verified' : 'unverified',
  );
  const declared =
    scope.declared === null
      ? h('p', { class: 'muted' }, 'No change scope was given.')
      : h(
          'div',
          {},
          h('h3', {}, `Declared paths (${scope.declared.length})`),
          h('ul', { class: 'paths' }, ...scope.declared.map((p) => h('li', {}, p))),
        );
  const diffPaths = h(
    'div',
    {},
    h('h3', {}, `Paths in the diff (${scope.diffPaths.length})`),
    h(
      'ul',
      { class: 'paths' },
      ...scope.diffPaths.map((mark) =>
        h(
          'li',
          { class: mark.undeclared ? 'undeclared' : undefined },
          mark.path,
          mark.undeclared ? h('span', { class: 'badge undeclared' }, 'undeclared') : null,
        ),
      ),
    ),
  );
  return section(
    'scope',
    'Scope',
    h('p', {}, 'Provenance: ', badge),
    h('p', { class: 'explanation' }, scope.explanation),
    declared,
    diffPaths,
  );
}

function rubricRow(row: RubricView): HTMLElement {
  const flags = [row.hardGate ? 'hard gate' : null, row.mustNotRegress ? 'must not regress' : null].filter(
    (f): f is string => f !== null,
  );
  return h(
    'tr',
    {},
    h(
      'th',
      { scope: 'row' },
      h('span', { class: 'dimension' }, row.dimension),
      ' ',
      h('span', { class: 'direction', title: row.direction, 'aria-label': row.direction }, row.arrow),
      ...flags.map((f) => h('span', { class: 'badge gate' }, f)),
      h('div', { class: 'muted command' }, row.evidenceCommand),
    ),
    h('td', {}, String(row.weight), h('div', { class: 'muted' }, row.share)),
    h('td', { class: row.baselineMeasured ? 'measured' : undefined }, String(row.baseline)),
    h('td', {}, String(row.target)),
    h('td', {}, String(row.failureThreshold)),
  );
}

function rubricBlock(model: BriefViewModel): HTMLElement {
  const head = ['Dimension', 'Weight', 'Baseline', 'Target', 'Threshold'];
  const table = h(
    'table',
    { class: 'rubric' },
    h('thead', {}, h('tr', {}, ...head.map((name) => h('th', { scope: 'col' }, name)))),
    h('tbody', {}, ...model.rubric.map(rubricRow)),
  );
  const extra =
    model.extraBaseline.length > 0
      ? h(
          'p',
          { class: 'muted' },
          'Baseline also carries: ',
          model.extraBaseline.map((b) => `${b.dimension} = ${b.value}`).join(', '),
        )
      : null;
  return section(
    'rubric',
    'Rubric and baseline',
    model.rubric.length > 0 ? table : h('p', { class: 'muted' }, 'The contract has no rubric.'),
    extra,
    h(
      'p',
      { class: 'muted' },
      'A baseline shown in bold was measured in the ledger; the others are declared.',
    ),
  );
}

export function packetView(model: BriefViewModel): HTMLElement[] {
  return [
    scopeBlock(model),
    rubricBlock(model),
    section(
      'verification',
      'Verification output',
      h('pre', { class: 'verification', tabindex: '0' }, model.verification),
    ),
    section(
      'asks',
      'What the critic is asked',
      h('ol', { class: 'asks' }, ...model.asks.map((a) => h('li', {}, a))),
    ),
  ];
}
