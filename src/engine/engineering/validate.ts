// The loop-engineering contract rules, in the original validator's report order:
// empty fields (alphabetical), mode, topology, the four caps, [strict: review ceiling], stop
// condition, verifier, permission boundary, [strict: manager-workers gate], [strict: automation
// trigger]. Each finding keeps the original's message word for word (tools grep for them) and
// adds a stable code, the field (snake_case) and the line it is on.
import { compareCodePoints } from '../python-text';
import { boundaryNeedsApprovalRollback } from './boundary';
import { capProblem, wholeNumbers } from './caps';
import {
  CAP_FIELDS,
  EMPTY_MARKERS,
  MODE_ALIASES,
  MODES,
  REQUIRED_FIELDS,
  snakeKey,
  TOPOLOGIES,
  type Mode,
  type Topology,
} from './fields';
import { normalise, type FieldSpot } from './parse-md';
import { textPattern } from './unicode';

export interface EngineeringFinding {
  code: string;
  /** The original's message, word for word. */
  message: string;
  /** The field in snake_case (`max_iterations`), or null. */
  field: string | null;
  /** 1-based line of the field in the file, or null when it is not written at all. */
  line: number | null;
  /** Whether only `--strict` reports it (the editor shows these as warnings). */
  strict: boolean;
  /** Extra help that is not part of the original's message. */
  hint?: string;
}

/** What the rules read: the parsed fields and, when known, where each is written. */
export interface EngineeringFields {
  fields: Map<string, string>;
  spots?: Map<string, FieldSpot>;
  bom?: boolean;
}

const SORTED_REQUIRED = [...REQUIRED_FIELDS].sort(compareCodePoints);
const STOP_VAGUE = ['until satisfied', 'keep improving', 'run forever', 'infinite'];
const AUTOMATION_TRIGGER = textPattern(
  (c) => `${c.start}(?:cron|schedule|scheduled|webhook|event|queue|timer|ci|pr)${c.end}`,
  '',
);

const rstripDots = (s: string): string => s.replace(/\.+$/, '');

/** The mode as the original reads it: normalised, trailing dots dropped, aliases resolved. */
export function canonicalMode(raw: string): string {
  const mode = rstripDots(normalise(raw));
  return MODE_ALIASES[mode] ?? mode;
}

export function canonicalTopology(raw: string): string {
  return rstripDots(normalise(raw));
}

export function isMode(word: string): word is Mode {
  return (MODES as readonly string[]).includes(word);
}

export function isTopology(word: string): word is Topology {
  return (TOPOLOGIES as readonly string[]).includes(word);
}

export function validateEngineering(contract: EngineeringFields, strict: boolean): EngineeringFinding[] {
  const { fields } = contract;
  const get = (field: string): string => fields.get(field) ?? '';
  const norm = (field: string): string => normalise(get(field));
  const findings: EngineeringFinding[] = [];
  const add = (code: string, message: string, field: string | null, isStrict = false): EngineeringFinding => {
    const spot = field === null ? undefined : contract.spots?.get(field);
    const finding: EngineeringFinding = {
      code,
      message,
      field: field === null ? null : snakeKey(field),
      line: spot ? spot.line + 1 : null,
      strict: isStrict,
    };
    findings.push(finding);
    return finding;
  };

  for (const field of SORTED_REQUIRED) {
    if (!EMPTY_MARKERS.has(norm(field))) continue;
    const finding = add(`missing-field:${snakeKey(field)}`, `missing or empty field: ${field}`, field);
    if (contract.bom && !fields.has(field) && fields.has(`\ufeff${field}`)) {
      finding.hint = 'the file starts with a byte-order mark, which the field name on line 1 then includes';
      finding.line = 1;
    }
  }

  const mode = canonicalMode(get('mode'));
  if (mode !== '' && !isMode(mode)) {
    add('invalid-mode', 'mode must be Goal, Loop, Automation, or AutoResearch', 'mode');
  }
  const topology = canonicalTopology(get('topology'));
  if (topology !== '' && !isTopology(topology)) {
    add('invalid-topology', 'topology must be single-agent, maker-checker, or manager-workers', 'topology');
  }

  for (const field of CAP_FIELDS) {
    const problem = capProblem(field, norm(field));
    if (problem === 'not-finite') {
      add(`cap-not-finite:${snakeKey(field)}`, `${field} must contain a finite numeric cap`, field);
    } else if (problem === 'not-positive') {
      add(
        `cap-not-positive:${snakeKey(field)}`,
        `${field} must contain a positive finite numeric cap`,
        field,
      );
    }
  }

  const review = norm('review budget');
  if (strict) {
    const mentionsLines = review.includes('line') || review.includes('changed') || review.includes('diff');
    if (mentionsLines && wholeNumbers(review).some((n) => n > 1000)) {
      add(
        'review-budget-over-1000',
        'review budget should cap changed lines at 1000 or less',
        'review budget',
        true,
      );
    }
  }

  const stop = norm('stop condition');
  if (STOP_VAGUE.some((phrase) => stop.includes(phrase))) {
    add(
      'vague-stop-condition',
      'stop condition must be an evidence-based result or finite cap',
      'stop condition',
    );
  }

  const verifier = norm('verifier');
  if (verifier.includes('self') || verifier.includes('same builder')) {
    add('self-verifier', 'verifier cannot be the builder alone', 'verifier');
  }

  const boundary = norm('permission boundary');
  if (boundaryNeedsApprovalRollback(boundary)) {
    add(
      'risky-boundary-needs-approval-rollback',
      'external or production boundary requires approval and rollback',
      'permission boundary',
    );
  }

  // The original joins the two fields with a space before looking: kept, as it decides findings.
  if (
    strict &&
    topology === 'manager-workers' &&
    !`${norm('recovery')} ${boundary}`.includes('integration gate')
  ) {
    add(
      'manager-workers-needs-integration-gate',
      'manager-workers requires an explicit integration gate in recovery or permission boundary',
      'topology',
      true,
    );
  }

  if (strict && mode === 'automation' && !AUTOMATION_TRIGGER(norm('trigger')).test(norm('trigger'))) {
    add(
      'automation-needs-event-trigger',
      'automation mode requires a schedule, webhook, event, queue, CI, PR, or timer trigger',
      'trigger',
      true,
    );
  }
  return findings;
}

/** The PASS summary's lines after the heading, as the original prints them. */
export function passSummary(fields: Map<string, string>): string[] {
  return [
    `- fields: ${fields.size}`,
    `- mode: ${canonicalMode(fields.get('mode') ?? '')}`,
    `- topology: ${canonicalTopology(fields.get('topology') ?? '')}`,
    `- stop condition: ${fields.get('stop condition') ?? ''}`,
  ];
}
