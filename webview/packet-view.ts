// The right column's reading part: the scope block first (the asks say to start there), then
// the rubric with its baseline, the verification output and the asks. Nothing the builder wrote
// about the change appears here: the packet carries none of it.
import { h, section } from './dom';
import type { BriefViewModel, RubricView } from './view-model';
import { w } from './words';

function scopeBlock(model: BriefViewModel): HTMLElement {
  const { scope } = model;
  const badge = h(
    'span',
    { class: `badge provenance-${scope.provenance}` },
    w(scope.provenance === 'verified' ? 'verified' : 'unverified'),
  );
  const declared =
    scope.declared === null
      ? h('p', { class: 'muted' }, w('No change scope was given.'))
      : h(
          'div',
          {},
          h('h3', {}, w('Declared paths ({0})', scope.declared.length)),
          h('ul', { class: 'paths' }, ...scope.declared.map((p) => h('li', {}, p))),
        );
  const diffPaths = h(
    'div',
    {},
    h('h3', {}, w('Paths in the diff ({0})', scope.diffPaths.length)),
    h(
      'ul',
      { class: 'paths' },
      ...scope.diffPaths.map((mark) =>
        h(
          'li',
          { class: mark.undeclared ? 'undeclared' : undefined },
          mark.path,
          mark.undeclared ? h('span', { class: 'badge undeclared' }, w('undeclared')) : null,
        ),
      ),
    ),
  );
  return section(
    'scope',
    w('Scope'),
    h('p', {}, `${w('Provenance:')} `, badge),
    h('p', { class: 'explanation' }, scope.explanation),
    declared,
    diffPaths,
  );
}

function rubricRow(row: RubricView): HTMLElement {
  const flags = [
    row.hardGate ? w('hard gate') : null,
    row.mustNotRegress ? w('must not regress') : null,
  ].filter((f): f is string => f !== null);
  const direction = w(row.direction === 'lower-is-better' ? 'lower is better' : 'higher is better');
  return h(
    'tr',
    {},
    h(
      'th',
      { scope: 'row' },
      h('span', { class: 'dimension' }, row.dimension),
      ' ',
      h('span', { class: 'direction', title: direction, 'aria-label': direction }, row.arrow),
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
  const head = [w('Dimension'), w('Weight'), w('Baseline'), w('Target'), w('Threshold')];
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
          w(
            'Baseline also carries: {0}',
            model.extraBaseline.map((b) => `${b.dimension} = ${b.value}`).join(', '),
          ),
        )
      : null;
  return section(
    'rubric',
    w('Rubric and baseline'),
    model.rubric.length > 0 ? table : h('p', { class: 'muted' }, w('The contract has no rubric.')),
    extra,
    h(
      'p',
      { class: 'muted' },
      w('A baseline shown in bold was measured in the ledger; the others are declared.'),
    ),
  );
}

export function packetView(model: BriefViewModel): HTMLElement[] {
  return [
    scopeBlock(model),
    rubricBlock(model),
    section(
      'verification',
      w('Verification output'),
      h('pre', { class: 'verification', tabindex: '0' }, model.verification),
    ),
    section(
      'asks',
      w('What the critic is asked'),
      h('ol', { class: 'asks' }, ...model.asks.map((a) => h('li', {}, a))),
    ),
  ];
}
