// Packet → what the panel shows. Everything a person reads in the panel is derived here, from
// the engine's packet alone (plus the session and change labels), so it can be tested without a
// browser. There is no builder summary in a packet, and none is invented here.
import type { PanelState, RubricRow } from '../src/shared/protocol';
import { splitDiff, type DiffFile } from '../src/shared/diff-files';
import { w } from './words';

export interface FileView extends DiffFile {
  /** Stable DOM id of the file's section. */
  anchor: string;
  /** In the diff but not in the declared change scope (only meaningful when scope is verified). */
  undeclared: boolean;
  /** Expanded when the panel opens: small diffs are, the rest wait for a click. */
  initiallyExpanded: boolean;
}

export interface RubricView {
  dimension: string;
  direction: 'higher-is-better' | 'lower-is-better';
  /** ↑ or ↓: which way is better. */
  arrow: string;
  weight: number;
  /** The weight as a share of all weights, e.g. "70%". */
  share: string;
  /** The baseline the packet carries (measured in the ledger, or the contract's declared one). */
  baseline: number;
  /** True when the packet's baseline differs from the contract's declared one. */
  baselineMeasured: boolean;
  target: number;
  failureThreshold: number;
  hardGate: boolean;
  mustNotRegress: boolean;
  evidenceCommand: string;
}

export interface PathMark {
  path: string;
  /** Declared in the change scope and present in the diff. */
  declared: boolean;
  /** Present in the diff but not declared (highlighted in the scope block). */
  undeclared: boolean;
}

export interface BriefViewModel {
  briefId: string;
  session: string;
  changeLabel: string;
  files: FileView[];
  totals: { files: number; additions: number; deletions: number };
  rubric: RubricView[];
  /** Dimensions in `baseline` that the rubric does not name (older ledgers); shown as-is. */
  extraBaseline: { dimension: string; value: number }[];
  verification: string;
  scope: {
    provenance: 'verified' | 'unverified';
    /** One sentence that says what the provenance means for the critic. */
    explanation: string;
    declared: string[] | null;
    diffPaths: PathMark[];
    undeclared: string[];
  };
  asks: string[];
  verdicts: string[];
  spent: PanelState['spent'];
  canRecord: boolean;
}

/** Files expanded on open, until this many diff lines have been shown. */
export const INITIAL_EXPANDED_LINES = 600;

function anchorFor(index: number): string {
  return `file-${index}`;
}

function percent(part: number, whole: number): string {
  if (whole <= 0) return '—';
  const value = (part / whole) * 100;
  return `${Number.isInteger(value) ? value : value.toFixed(1)}%`;
}

function rubricView(rows: RubricRow[], baseline: Record<string, number>): RubricView[] {
  const total = rows.reduce((sum, row) => sum + (Number.isFinite(row.weight) ? row.weight : 0), 0);
  return rows.map((row) => {
    const carried = baseline[row.dimension];
    const value = typeof carried === 'number' ? carried : row.baseline;
    return {
      dimension: row.dimension,
      direction: row.direction,
      arrow: row.direction === 'lower-is-better' ? '↓' : '↑',
      weight: row.weight,
      share: percent(row.weight, total),
      baseline: value,
      baselineMeasured: value !== row.baseline,
      target: row.target,
      failureThreshold: row.failure_threshold,
      hardGate: row.hard_gate,
      mustNotRegress: row.must_not_regress === true,
      evidenceCommand: row.evidence_command,
    };
  });
}

function scopeExplanation(provenance: 'verified' | 'unverified', undeclared: number): string {
  if (provenance === 'unverified')
    return w(
      'Unverified: nothing shows that this diff is the whole change. Judge only what the diff contains.',
    );
  if (undeclared === 0) return w('Verified: the diff covers every path the change scope declares.');
  return w(
    'Verified: the diff covers the declared scope, and touches {0} path(s) the scope does not declare.',
    undeclared,
  );
}

export function toViewModel(state: PanelState): BriefViewModel {
  const { packet } = state;
  const undeclared = new Set(packet.scope.undeclared_paths);
  const declared = packet.scope.declared_paths;
  const declaredSet = new Set(declared ?? []);
  let shownLines = 0;
  const files = splitDiff(packet.diff).map((file, index): FileView => {
    const lines = file.additions + file.deletions;
    const initiallyExpanded = shownLines + lines <= INITIAL_EXPANDED_LINES;
    if (initiallyExpanded) shownLines += lines;
    return {
      ...file,
      anchor: anchorFor(index),
      undeclared: packet.scope.provenance === 'verified' && undeclared.has(file.path),
      initiallyExpanded,
    };
  });
  const rubricNames = new Set(packet.rubric.map((row) => row.dimension));
  return {
    briefId: packet.brief_id,
    session: state.session,
    changeLabel: state.change.label,
    files,
    totals: {
      files: files.length,
      additions: files.reduce((sum, f) => sum + f.additions, 0),
      deletions: files.reduce((sum, f) => sum + f.deletions, 0),
    },
    rubric: rubricView(packet.rubric, packet.baseline),
    extraBaseline: Object.entries(packet.baseline)
      .filter(([dimension]) => !rubricNames.has(dimension))
      .map(([dimension, value]) => ({ dimension, value })),
    verification: packet.verification,
    scope: {
      provenance: packet.scope.provenance,
      explanation: scopeExplanation(packet.scope.provenance, undeclared.size),
      declared,
      diffPaths: packet.scope.diff_paths.map((path) => ({
        path,
        declared: declaredSet.has(path),
        undeclared: undeclared.has(path),
      })),
      undeclared: [...undeclared],
    },
    asks: packet.asks,
    verdicts: packet.verdicts,
    spent: state.spent,
    canRecord: state.canRecord,
  };
}
