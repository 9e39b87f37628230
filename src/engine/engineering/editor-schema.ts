// The schema VS Code reads for every JSON contract file (`.loop/contracts/*.json`,
// `*.loop-contract.json`): either kind lives there, so the schema follows the document's `kind`.
// `"kind": "loop-engineering"` gives the loop-engineering keys (completion, hover); anything else
// the work-loop contract's. Like the work-loop editor schema it is an authoring aid that
// validates nothing — each kind's findings come once, from the engine, as diagnostics.
// scripts/generate-schema.mjs writes it to schemas/contract-file.editor.schema.json.
import { contractEditorSchema } from '../contract/json-schema';
import { engineeringJsonSchema } from './json-schema';
import { ENGINEERING_KIND } from './json-form';

type Schema = Record<string, unknown>;

/** Only what helps an author (hover text); the engine owns every rule. */
function describeOnly(property: Schema): Schema {
  const out: Schema = {};
  for (const key of ['description', 'markdownDescription'] as const)
    if (property[key] !== undefined) out[key] = property[key];
  return out;
}

export function contractFileEditorSchema(): Schema {
  const { $schema, title: _title, ...workLoop } = contractEditorSchema();
  const engineering = engineeringJsonSchema().properties as Record<string, Schema>;
  const { kind: _kind, ...fields } = engineering;
  return {
    $schema,
    title: 'Loop Ledger contract (work-loop, or loop-engineering by its kind)',
    properties: {
      kind: {
        description: `"${ENGINEERING_KIND}" makes this a loop-engineering contract; a work-loop contract has no kind.`,
        markdownDescription: `\`"${ENGINEERING_KIND}"\` makes this a **loop-engineering** contract: its 22 fields under snake_case keys. A work-loop contract has no \`kind\`.`,
        examples: [ENGINEERING_KIND],
      },
    },
    // A condition, not a rule: it only chooses which keys the editor offers.
    if: { properties: { kind: { const: ENGINEERING_KIND } }, required: ['kind'] },
    then: {
      properties: Object.fromEntries(Object.entries(fields).map(([key, p]) => [key, describeOnly(p)])),
    },
    else: workLoop,
  };
}

export function contractFileEditorSchemaText(): string {
  return `${JSON.stringify(contractFileEditorSchema(), null, 2)}\n`;
}
