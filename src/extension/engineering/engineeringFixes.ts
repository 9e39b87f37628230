// The quick fixes for a `.loop.md` contract, as plain text edits (no `vscode` here, so they can
// be unit-tested): insert every missing field from the template, write a canonical mode or
// topology word, name an approval and a rollback on a risky boundary, and add the integration
// gate manager-workers needs.
import * as l10n from '@vscode/l10n';
import { FIELD_TEMPLATE } from '../../engine/engineering/descriptions';
import {
  MODE_WORDS,
  MODES,
  REQUIRED_FIELDS,
  snakeKey,
  TOPOLOGIES,
  displayName,
} from '../../engine/engineering/fields';
import type { FieldSpot } from '../../engine/engineering/parse-md';
import type { EngineeringFinding } from '../../engine/engineering/validate';

/** Replace columns [start, end) of 0-based `line`; `line` past the end appends. */
export interface LineEdit {
  line: number;
  start: number;
  end: number;
  text: string;
}

export interface EngineeringFix {
  title: string;
  edits: LineEdit[];
  preferred: boolean;
}

const fieldOfCode = new Map(REQUIRED_FIELDS.map((f) => [snakeKey(f), f]));

/** The fixes one finding offers. `lines` is the document's text split into lines. */
export function engineeringFixes(
  finding: EngineeringFinding,
  all: readonly EngineeringFinding[],
  spots: ReadonlyMap<string, FieldSpot>,
  lines: readonly string[],
  eol: string,
): EngineeringFix[] {
  const replaceValue = (field: string, text: string): LineEdit[] => {
    const spot = spots.get(field);
    return spot ? [{ line: spot.line, start: spot.valueStart, end: spot.valueEnd, text }] : [];
  };
  const appendToValue = (field: string, text: string): LineEdit[] => {
    const spot = spots.get(field);
    return spot ? [{ line: spot.line, start: spot.valueEnd, end: spot.valueEnd, text }] : [];
  };
  if (finding.code.startsWith('missing-field:')) {
    const fixes: EngineeringFix[] = [];
    const field = fieldOfCode.get(finding.code.slice('missing-field:'.length));
    if (field && spots.has(field)) {
      fixes.push({
        title: l10n.t('Fill in {0} from the template', displayName(field)),
        edits: replaceValue(field, FIELD_TEMPLATE[field]),
        preferred: false,
      });
    }
    const absent = all
      .filter((f) => f.code.startsWith('missing-field:'))
      .map((f) => fieldOfCode.get(f.code.slice('missing-field:'.length)))
      .filter((f): f is (typeof REQUIRED_FIELDS)[number] => f !== undefined && !spots.has(f));
    if (absent.length > 0) {
      const last = lines.length;
      const needsBreak = last > 0 && lines[last - 1] !== '';
      const block = absent.map((f) => `${displayName(f)}: ${FIELD_TEMPLATE[f]}`).join(eol);
      fixes.push({
        title: l10n.t('Insert the {0} missing field(s) as a template', absent.length),
        edits: [
          {
            line: last - 1 < 0 ? 0 : last - 1,
            start: lines[last - 1]?.length ?? 0,
            end: lines[last - 1]?.length ?? 0,
            text: `${needsBreak ? eol : ''}${block}${eol}`,
          },
        ],
        preferred: true,
      });
    }
    return fixes;
  }
  if (finding.code === 'invalid-mode') {
    return MODES.map((m, i) => ({
      title: l10n.t('Mode: {0}', MODE_WORDS[m]),
      edits: replaceValue('mode', MODE_WORDS[m]),
      preferred: i === 0,
    }));
  }
  if (finding.code === 'invalid-topology') {
    return TOPOLOGIES.map((t, i) => ({
      title: l10n.t('Topology: {0}', t),
      edits: replaceValue('topology', t),
      preferred: i === 0,
    }));
  }
  if (finding.code === 'risky-boundary-needs-approval-rollback') {
    return [
      {
        title: l10n.t('Add "approval" and "rollback" to the permission boundary'),
        edits: appendToValue(
          'permission boundary',
          "; crossing it needs the owner's approval first; rollback: restore the previous release",
        ),
        preferred: true,
      },
    ];
  }
  if (finding.code === 'manager-workers-needs-integration-gate') {
    return [
      {
        title: l10n.t('Add an integration gate to the recovery'),
        edits: appendToValue(
          'recovery',
          '; integration gate: the manager verifies the merged diff and tests before completion',
        ),
        preferred: true,
      },
    ];
  }
  return [];
}
