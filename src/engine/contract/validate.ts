// Contract validation. Every problem is reported, in the reference's order:
// the value must be an object; missing fields, then unknown fields; then each field in
// declaration order, the rubric last, its entries checked in stages (a)–(g), each stage that
// finds a problem ending that entry's checks. Which keys exist and the direction words come
// from the zod schema (through shape.ts); the stages are hand-written because their order and
// stopping rules are the reference's, not zod's.
//
// Where Loop Ledger is deliberately stricter than the reference: a `null` field and a non-finite
// number are refused.
import type { Contract, Finding, RubricDimension } from '../types';
import { checkEvidenceCommand, type ProgramResolver } from './evidence-command';
import { isPyBlank, pyStrip } from '../python-text';
import {
  CONTRACT_FIELD_NAMES as CONTRACT_FIELDS,
  CONTRACT_LIMIT_NAMES as LIMIT_FIELDS,
  CONTRACT_SWITCH_NAMES as SWITCH_FIELDS,
  DIMENSION_KEY_NAMES as DIMENSION_KEYS,
  DIRECTION_WORDS,
  REQUIRED_DIMENSION_KEY_NAMES as REQUIRED_DIMENSION_KEYS,
} from './shape';

type ContractField = keyof Contract;

export type ContractValidation = { ok: true; contract: Contract } | { ok: false; findings: Finding[] };

type Path = (string | number)[];
type PlainObject = Record<string, unknown>;

const RUBRIC = 'quality_rubric';
const NUMERIC_KEYS = ['baseline', 'target', 'weight', 'failure_threshold'] as const;

/**
 * Decide whether `raw` (a parsed contract file) is a valid contract. `resolveProgram` answers
 * whether an evidence command's program word could start (PATH, absolute path, file under root).
 */
export function validateContract(raw: unknown, resolveProgram: ProgramResolver): ContractValidation {
  if (!isPlainObject(raw)) {
    return {
      ok: false,
      findings: [
        { code: 'not-an-object', path: [], message: `contract: expected a JSON object, got ${kindOf(raw)}` },
      ],
    };
  }

  const findings: Finding[] = [];
  const report = (code: string, path: Path, message: string) =>
    findings.push({ code, path, message: `${formatPath(path)}: ${message}` });

  for (const field of CONTRACT_FIELDS) {
    if (!Object.hasOwn(raw, field)) {
      report(
        'missing-field',
        [field],
        'missing — a contract declares all twelve fields before its first iteration',
      );
    }
  }
  const known: readonly string[] = [...CONTRACT_FIELDS, ...LIMIT_FIELDS, ...SWITCH_FIELDS];
  for (const key of Object.keys(raw)
    .filter((k) => !known.includes(k))
    .sort()) {
    report(
      'unknown-field',
      [key],
      `not one of the twelve contract fields (${CONTRACT_FIELDS.join(', ')}) nor an optional cap (${LIMIT_FIELDS.join(', ')})`,
    );
  }

  for (const field of CONTRACT_FIELDS) {
    if (!Object.hasOwn(raw, field)) continue;
    const value = raw[field];
    if (value === null) {
      report('null-field', [field], 'is null — declare a real value (null is refused)');
    } else if (field === RUBRIC) {
      findings.push(...checkRubric(value, resolveProgram));
    } else if (field === 'iteration_limit') {
      if (typeof value !== 'number' || !Number.isInteger(value) || value < 1) {
        report('bad-iteration-limit', [field], `must be a whole number of at least 1, got ${show(value)}`);
      }
    } else if (typeof value === 'number' && !Number.isFinite(value)) {
      report('not-finite', [field], `must be a finite value, got ${show(value)}`);
    } else if (Array.isArray(value)) {
      if (value.length === 0) {
        report(
          'empty-field',
          [field],
          'declared as an empty list — an empty declaration is an undeclared field',
        );
      }
      value.forEach((item: unknown, index) => {
        if (isBlank(item)) {
          report('empty-field', [field, index], 'blank item — every item of a declared list needs content');
        }
      });
    } else if (isBlank(value)) {
      report('empty-field', [field], 'declared empty — an empty declaration is an undeclared field');
    }
  }

  for (const field of LIMIT_FIELDS) {
    if (!Object.hasOwn(raw, field)) continue;
    const value = raw[field];
    const whole = field === 'token_limit';
    if (
      typeof value !== 'number' ||
      !Number.isFinite(value) ||
      value <= 0 ||
      (whole && !Number.isInteger(value))
    ) {
      const what = whole ? 'a whole number of at least 1' : 'a number greater than 0';
      report('bad-limit', [field], `must be ${what} (or left out), got ${show(value)}`);
    }
  }

  for (const field of SWITCH_FIELDS) {
    if (!Object.hasOwn(raw, field)) continue;
    if (typeof raw[field] !== 'boolean') {
      report('bad-switch', [field], `must be true or false (or left out), got ${show(raw[field])}`);
    }
  }

  if (findings.length > 0) return { ok: false, findings };
  return { ok: true, contract: pickContract(raw) };
}

/** The rubric's findings: its shape, then each entry through stages (a)–(g). */
function checkRubric(value: unknown, resolveProgram: ProgramResolver): Finding[] {
  const findings: Finding[] = [];
  const report = (code: string, path: Path, message: string) =>
    findings.push({ code, path, message: `${formatPath(path)}: ${message}` });

  if (!Array.isArray(value)) {
    report('rubric-not-list', [RUBRIC], `expected a list of dimensions, got ${kindOf(value)}`);
    return findings;
  }
  if (value.length === 0) {
    report('empty-rubric', [RUBRIC], 'declared empty — a rubric needs at least one dimension to measure');
    return findings;
  }

  const seen = new Set<string>();
  value.forEach((entry: unknown, index) => {
    const at: Path = [RUBRIC, index];
    // (a) an object
    if (!isPlainObject(entry)) {
      report(
        'dimension-not-object',
        at,
        `expected an object with the eight dimension keys, got ${kindOf(entry)}`,
      );
      return;
    }
    // (b) exactly the declared keys: every missing and every unknown key, together
    const before = findings.length;
    for (const key of REQUIRED_DIMENSION_KEYS) {
      if (!Object.hasOwn(entry, key)) {
        report('missing-key', [...at, key], 'missing — a dimension declares all eight keys');
      }
    }
    const allowed: readonly string[] = DIMENSION_KEYS;
    for (const key of Object.keys(entry)
      .filter((k) => !allowed.includes(k))
      .sort()) {
      report('unknown-key', [...at, key], `not a dimension key (${DIMENSION_KEYS.join(', ')})`);
    }
    if (findings.length > before) return;

    // (c) a name, (d) not used twice
    const name = dimensionName(entry.dimension);
    if (name === '') {
      report(
        'empty-dimension-name',
        [...at, 'dimension'],
        'declared empty — a nameless dimension cannot be measured',
      );
      return;
    }
    if (seen.has(name)) {
      report(
        'duplicate-dimension',
        [...at, 'dimension'],
        `${show(entry.dimension)} is already used by an earlier dimension — names must be unique`,
      );
      return;
    }
    seen.add(name);

    // (e) value kinds, all collected together
    findings.push(...checkEntryValues(entry, at, resolveProgram));
    if (findings.length > before) return;

    const dim = entry as unknown as RubricDimension;
    // (f) a weight that counts
    if (dim.weight <= 0) {
      report('non-positive-weight', [...at, 'weight'], `must be greater than 0, got ${show(dim.weight)}`);
      return;
    }
    // (g) baseline, target and direction agree
    if (dim.must_not_regress === true) {
      if (dim.target !== dim.baseline) {
        report(
          'must-not-regress-target',
          [...at, 'target'],
          `must equal the baseline (${show(dim.baseline)}) when must_not_regress is true, got ${show(dim.target)}`,
        );
      }
      return;
    }
    if (dim.target === dim.baseline) {
      report(
        'target-equals-baseline',
        [...at, 'target'],
        `equals the baseline (${show(dim.baseline)}) — a dimension that cannot move measures nothing; ` +
          'declare "must_not_regress": true for a line to hold',
      );
      return;
    }
    const rising = dim.target > dim.baseline;
    if (rising !== (dim.direction === 'higher-is-better')) {
      report(
        'direction-disagrees',
        [...at, 'direction'],
        `is "${dim.direction}" but the target moves the other way (baseline ${show(dim.baseline)} → target ` +
          `${show(dim.target)})`,
      );
    }
  });
  return findings;
}

/** Stage (e): the evidence command, the four numbers, the two booleans and the direction. */
function checkEntryValues(entry: PlainObject, at: Path, resolveProgram: ProgramResolver): Finding[] {
  const findings: Finding[] = [];
  const report = (code: string, path: Path, message: string) =>
    findings.push({ code, path, message: `${formatPath(path)}: ${message}` });

  const command = entry.evidence_command;
  const commandText = command === null ? '' : pythonStr(command);
  if (isBlank(commandText)) {
    report(
      'blank-evidence-command',
      [...at, 'evidence_command'],
      'declared empty — a dimension with no command is a judgment, and judgments belong in review',
    );
  } else {
    for (const f of checkEvidenceCommand(commandText, resolveProgram)) {
      findings.push({ ...f, path: [...at, ...(f.path ?? [])], message: `${formatPath(at)}.${f.message}` });
    }
  }

  for (const key of NUMERIC_KEYS) {
    const value = entry[key];
    if (typeof value !== 'number') {
      report('not-a-number', [...at, key], `must be a number, got ${show(value)}`);
    } else if (!Number.isFinite(value)) {
      report('not-finite', [...at, key], `must be a finite number, got ${show(value)}`);
    }
  }
  if (typeof entry.hard_gate !== 'boolean') {
    report('not-boolean', [...at, 'hard_gate'], `must be true or false, got ${show(entry.hard_gate)}`);
  }
  if (Object.hasOwn(entry, 'must_not_regress') && typeof entry.must_not_regress !== 'boolean') {
    report(
      'not-boolean',
      [...at, 'must_not_regress'],
      `must be true or false when present, got ${show(entry.must_not_regress)}`,
    );
  }
  if (typeof entry.direction !== 'string' || !DIRECTION_WORDS.includes(entry.direction)) {
    report(
      'bad-direction',
      [...at, 'direction'],
      `must be ${DIRECTION_WORDS.map((d) => `"${d}"`).join(' or ')}, got ${show(entry.direction)}`,
    );
  }
  return findings;
}

/** A valid contract, rebuilt from the known keys only (nothing is assigned through a raw key). */
function pickContract(raw: PlainObject): Contract {
  const contract: Partial<Record<ContractField, unknown>> = {};
  for (const field of CONTRACT_FIELDS as ContractField[]) {
    contract[field] = field === RUBRIC ? (raw[field] as PlainObject[]).map(pickDimension) : raw[field];
  }
  const limits: Record<string, unknown> = {};
  for (const field of [...LIMIT_FIELDS, ...SWITCH_FIELDS])
    if (Object.hasOwn(raw, field)) limits[field] = raw[field];
  return { ...contract, ...limits } as Contract;
}

function pickDimension(entry: PlainObject): RubricDimension {
  const dimension: Partial<Record<string, unknown>> = {};
  for (const key of DIMENSION_KEYS) {
    if (Object.hasOwn(entry, key)) dimension[key] = entry[key];
  }
  return dimension as unknown as RubricDimension;
}

function isPlainObject(value: unknown): value is PlainObject {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  const proto: unknown = Object.getPrototypeOf(value);
  return proto === Object.prototype || proto === null;
}

/** Blank as the original decides it: only text can be blank; any other value has a non-empty rendering. */
function isBlank(value: unknown): boolean {
  return typeof value === 'string' && isPyBlank(value);
}

/**
 * The name a dimension is known by: its text, stripped; empty for a missing, null, false, zero,
 * empty-text, empty-list or empty-object value (the original reads `dimension or ""`).
 */
function dimensionName(value: unknown): string {
  if (value === null || value === undefined || value === false || value === 0) return '';
  if (Array.isArray(value) && value.length === 0) return '';
  if (isPlainObject(value) && Object.keys(value).length === 0) return '';
  const text = typeof value === 'string' ? value : pythonStr(value);
  return isBlank(text) ? '' : pyStrip(text);
}

/**
 * A non-string value rendered as the original engine's `str()` would (for numbers and booleans);
 * lists and objects get a short, bounded rendering so a deeply nested value cannot overflow.
 */
function pythonStr(value: unknown): string {
  if (typeof value === 'string') return value;
  if (typeof value === 'boolean') return value ? 'True' : 'False';
  if (typeof value === 'number') {
    if (Number.isFinite(value)) return String(value);
    return Number.isNaN(value) ? 'nan' : value > 0 ? 'inf' : '-inf';
  }
  if (value === null || value === undefined) return 'None';
  return Array.isArray(value) ? '[…]' : '{…}';
}

/** A value as it appears in a message: JSON spelling for scalars, a word for containers. */
function show(value: unknown): string {
  if (typeof value === 'string') {
    const clipped = value.length > 80 ? `${value.slice(0, 77)}…` : value;
    return JSON.stringify(clipped);
  }
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  if (value === null) return 'null';
  return kindOf(value);
}

function kindOf(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'a list';
  switch (typeof value) {
    case 'string':
      return 'a string';
    case 'number':
      return 'a number';
    case 'boolean':
      return 'a boolean';
    case 'object':
      return 'an object';
    default:
      return typeof value;
  }
}

/** `['quality_rubric', 1, 'direction']` → `quality_rubric[1].direction`. */
export function formatPath(path: readonly (string | number)[]): string {
  let out = '';
  for (const part of path) {
    if (typeof part === 'number') out += `[${part}]`;
    else if (/^[A-Za-z_$][\w$]*$/.test(part)) out += out === '' ? part : `.${part}`;
    else out += `[${JSON.stringify(part)}]`;
  }
  return out === '' ? 'contract' : out;
}
