// The JSON schema VS Code validates JSON loop-engineering contracts against, generated from the
// zod schema (scripts/generate-schema.mjs writes schemas/loop-engineering.schema.json).
import { z } from 'zod';
import { engineeringContractSchema } from './schema';

export function engineeringJsonSchema(): Record<string, unknown> {
  return z.toJSONSchema(engineeringContractSchema, { target: 'draft-7', io: 'input' });
}

export function engineeringJsonSchemaText(): string {
  return `${JSON.stringify(engineeringJsonSchema(), null, 2)}\n`;
}
