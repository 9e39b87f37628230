// The contract's JSON schemas, derived from the zod schema so they can never disagree. Pure: the
// generator script writes them to schemas/ and a unit test checks the committed copies.
// - contract.schema.json: the full draft-07 schema (the validator reads its shape from it).
// - contract.editor.schema.json: what VS Code reads for contract files. An authoring aid — keys,
//   hover text, completion — that validates nothing `validateContract` already reports: a rule
//   checked in both places showed every problem twice in the editor (a new blank contract listed
//   26 problems for 12 findings). It validates nothing: every rule is the engine's.
import { z } from 'zod';
import { contractSchema } from './schema';

/** Validation keywords whose every violation `validateContract` reports as a finding of its own. */
const ENGINE_OWNED = new Set([
  'type',
  'anyOf',
  'pattern',
  'patternErrorMessage',
  'minItems',
  'minimum',
  'maximum',
  'required',
  'additionalProperties',
  'propertyNames',
  'enum',
  'markdownEnumDescriptions',
  'exclusiveMinimum',
]);

type Json = unknown;

/** `node` without the engine-owned keywords; enums and booleans become completion snippets. */
function authoringAid(node: Json): Json {
  if (Array.isArray(node)) return node.map(authoringAid);
  if (node === null || typeof node !== 'object') return node;
  const schema = node as Record<string, Json>;
  const out: Record<string, Json> = {};
  for (const [key, value] of Object.entries(schema)) {
    if (ENGINE_OWNED.has(key)) continue;
    // `properties` maps key names to schemas: its own keys are field names, never keywords.
    out[key] =
      key === 'properties'
        ? Object.fromEntries(
            Object.entries(value as Record<string, Json>).map(([k, v]) => [k, authoringAid(v)]),
          )
        : authoringAid(value);
  }
  const words = Array.isArray(schema.enum) ? (schema.enum as string[]) : undefined;
  if (words) {
    const explained = (schema.markdownEnumDescriptions as string[] | undefined) ?? [];
    out.defaultSnippets = words.map((word, i) => ({
      label: word,
      body: word,
      markdownDescription: explained[i] ?? word,
    }));
  } else if (schema.type === 'boolean') {
    out.examples = [true, false];
  }
  return out;
}

/** The draft-07 schema of a contract as an author writes it (zod's input side). */
export function contractJsonSchema(): Record<string, unknown> {
  const { $schema, ...rest } = z.toJSONSchema(contractSchema, { target: 'draft-7', io: 'input' });
  return { $schema, title: 'Loop Ledger contract', ...rest };
}

/** The schema the editor validates contract files against: the full one as an authoring aid. */
export function contractEditorSchema(): Record<string, unknown> {
  return authoringAid(contractJsonSchema()) as Record<string, unknown>;
}

const fileText = (schema: unknown) => `${JSON.stringify(schema, null, 2)}\n`;

/** The file text: two-space indentation and a final newline, as every JSON file in the repository. */
export function contractJsonSchemaText(): string {
  return fileText(contractJsonSchema());
}

export function contractEditorSchemaText(): string {
  return fileText(contractEditorSchema());
}
