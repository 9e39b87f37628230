// The JSON schema VS Code validates contract files against (completion, hover, structural
// errors), derived from the zod schema so the two can never disagree. Pure: the generator script
// writes it to schemas/contract.schema.json and a unit test checks the committed copy.
import { z } from 'zod';
import { contractSchema } from './schema';

/** The draft-07 schema of a contract as an author writes it (zod's input side). */
export function contractJsonSchema(): Record<string, unknown> {
  const { $schema, ...rest } = z.toJSONSchema(contractSchema, { target: 'draft-7', io: 'input' });
  return { $schema, title: 'Loop Ledger contract', ...rest };
}

/** The file text: two-space indentation and a final newline, as every JSON file in the repository. */
export function contractJsonSchemaText(): string {
  return `${JSON.stringify(contractJsonSchema(), null, 2)}\n`;
}
