// The JSON form of a loop-engineering contract: `{"kind": "loop-engineering", …}` with the
// fields under snake_case keys. It is read into the same field map as a `.loop.md` file so the
// same rules (validate.ts) judge both. The key list comes from the schema the build generates
// from schema.ts (zod stays out of the CLI bundle, as for work-loop contracts: see
// ../contract/shape.ts); a unit test checks the two agree.
import schema from '../../../schemas/loop-engineering.schema.json';
import { CAP_FIELDS, REQUIRED_FIELDS, snakeKey } from './fields';
import type { FieldSpot } from './parse-md';
import type { EngineeringFinding, EngineeringFields } from './validate';

export const ENGINEERING_KIND = 'loop-engineering';

/** Every key the JSON form names (kind, the 22 fields, the NO_OP keys), in schema order. */
export const ENGINEERING_JSON_KEYS: readonly string[] = Object.keys(
  (schema as unknown as { properties: Record<string, unknown> }).properties,
);

const FIELD_BY_KEY = new Map<string, string>([
  ...REQUIRED_FIELDS.map((f) => [snakeKey(f), f] as const),
  ['no_op', 'no-op'],
  ['no_op_output_limit', 'no-op output limit'],
]);

/** The keys a number may stand for (a cap without its unit; the NO_OP output limit). */
const NUMERIC_KEYS = new Set([...CAP_FIELDS.map(snakeKey), 'no_op_output_limit']);

/** Whether parsed JSON declares itself a loop-engineering contract. */
export function isEngineeringJson(value: unknown): value is Record<string, unknown> {
  return (
    typeof value === 'object' &&
    value !== null &&
    !Array.isArray(value) &&
    (value as { kind?: unknown }).kind === ENGINEERING_KIND
  );
}

/** Where `"key":` first appears at the top of the text (0-based line), for findings and diagnostics. */
function spotOf(text: string, key: string): FieldSpot | undefined {
  const at = new RegExp(`(?<!\\\\)"${key}"\\s*:`).exec(text);
  if (!at) return undefined;
  const before = text.slice(0, at.index);
  const line = before.split(/\r\n|\r|\n/).length - 1;
  const column = at.index - Math.max(before.lastIndexOf('\n'), before.lastIndexOf('\r')) - 1;
  return {
    line,
    nameStart: column,
    nameEnd: column + key.length + 2,
    valueStart: column,
    valueEnd: column + key.length + 2,
  };
}

export interface JsonFormResult {
  contract: EngineeringFields;
  /** Values of the wrong type: each is one finding before the rules run. */
  typeFindings: EngineeringFinding[];
}

/** Reads a parsed JSON contract (`text` is its source, for line numbers). */
export function readEngineeringJson(value: Record<string, unknown>, text: string): JsonFormResult {
  const fields = new Map<string, string>();
  const spots = new Map<string, FieldSpot>();
  const typeFindings: EngineeringFinding[] = [];
  for (const [key, raw] of Object.entries(value)) {
    if (key === 'kind') continue;
    const field = FIELD_BY_KEY.get(key) ?? key;
    const spot = spotOf(text, key);
    if (spot) spots.set(field, spot);
    if (typeof raw === 'string') fields.set(field, raw);
    else if (
      typeof raw === 'number' &&
      Number.isFinite(raw) &&
      (NUMERIC_KEYS.has(key) || !FIELD_BY_KEY.has(key))
    )
      fields.set(field, String(raw));
    else if (raw === null) fields.set(field, '');
    else if (FIELD_BY_KEY.has(key)) {
      typeFindings.push({
        code: `invalid-type:${key}`,
        message: `${key} must be text${NUMERIC_KEYS.has(key) ? ' or a number' : ''}`,
        field: key,
        line: spot ? spot.line + 1 : null,
        strict: false,
      });
    } else fields.set(field, JSON.stringify(raw));
  }
  return { contract: { fields, spots }, typeFindings };
}
