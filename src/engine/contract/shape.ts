// The contract's shape — field names, rubric keys, direction words — read from the JSON schema
// that the build generates from the zod schema (schema.ts → json-schema.ts → schemas/). The
// validator uses this instead of zod itself: zod is ~450 KB of bundle that every `open` and
// `validate` would otherwise parse at start-up, and the CLI is started once per agent step.
// zod stays the single source: the committed schema is checked against it (unit test and the
// static tier), and a unit test checks these lists against zod's own.
import schema from '../../../schemas/contract.schema.json';

interface ObjectSchema {
  properties: Record<string, { enum?: string[] }>;
  required?: string[];
}

const contract = schema as unknown as ObjectSchema & {
  properties: { quality_rubric: { items: ObjectSchema } };
};
const dimension = contract.properties.quality_rubric.items;

/** The twelve required contract fields, in declaration order. */
export const CONTRACT_FIELD_NAMES: readonly string[] = Object.keys(contract.properties).filter((key) =>
  (contract.required ?? []).includes(key),
);

/** The optional boolean switches (`checkpoint`): optional, but not caps. */
export const CONTRACT_SWITCH_NAMES: readonly string[] = Object.keys(contract.properties).filter(
  (key) => (contract.properties[key] as { type?: string }).type === 'boolean',
);

/** The optional caps beside `iteration_limit` (cost_limit, token_limit, time_limit). */
export const CONTRACT_LIMIT_NAMES: readonly string[] = Object.keys(contract.properties).filter(
  (key) => !(contract.required ?? []).includes(key) && !CONTRACT_SWITCH_NAMES.includes(key),
);

/** Every rubric-dimension key (the eight required ones and `must_not_regress`). */
export const DIMENSION_KEY_NAMES: readonly string[] = Object.keys(dimension.properties);

/** The rubric-dimension keys that must be present. */
export const REQUIRED_DIMENSION_KEY_NAMES: readonly string[] = dimension.required ?? [];

/** The two direction words. */
export const DIRECTION_WORDS: readonly string[] = dimension.properties.direction?.enum ?? [];
