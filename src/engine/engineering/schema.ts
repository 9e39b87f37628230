// The SHAPE of the JSON form of a loop-engineering contract (`{"kind": "loop-engineering", …}`
// with snake_case keys), declared once. The JSON schema the editor validates against is
// generated from this (schemas/loop-engineering.schema.json); the CLI reads the key list from
// that generated file (json-form.ts) so its bundle never loads zod. The rules themselves are in
// validate.ts and apply to both forms alike.
import { z } from 'zod';
import { FIELD_HELP } from './descriptions';
import { CAP_FIELDS, REQUIRED_FIELDS, snakeKey, type RequiredField } from './fields';

const text = (help: string) => z.string().meta({ description: help, markdownDescription: help });
/** A cap may be a number ("4") or text with its unit ("35 minutes"). */
const cap = (help: string) =>
  z.union([z.string(), z.number()]).meta({ description: help, markdownDescription: help });

const isCap = (field: RequiredField): boolean => (CAP_FIELDS as readonly string[]).includes(field);

const fieldShape = Object.fromEntries(
  REQUIRED_FIELDS.map((field) => [
    snakeKey(field),
    isCap(field) ? cap(FIELD_HELP[field]) : text(FIELD_HELP[field]),
  ]),
);

export const engineeringContractSchema = z
  .looseObject({
    kind: z.literal('loop-engineering').meta({
      description: 'Marks a loop-engineering contract.',
      markdownDescription: 'Marks a **loop-engineering** contract.',
    }),
    ...fieldShape,
    no_op: text(
      'Allows a NO_OP iteration and declares its eligibility query: the check that proves there was no eligible work.',
    ).optional(),
    no_op_output_limit: z
      .number()
      .int()
      .min(0)
      .meta({
        description: 'How many outputs a NO_OP iteration may still produce (default 0).',
        markdownDescription: 'How many outputs a **NO_OP** iteration may still produce (default 0).',
      })
      .optional(),
  })
  .meta({ title: 'Loop Ledger loop-engineering contract' });
