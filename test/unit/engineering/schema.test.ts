// The JSON form's schema is generated from the zod schema; the CLI reads its key list from the
// committed file. Both must agree, and the file must be what the zod schema generates today.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { REQUIRED_FIELDS, snakeKey } from '../../../src/engine/engineering/fields';
import { ENGINEERING_JSON_KEYS } from '../../../src/engine/engineering/json-form';
import { engineeringJsonSchemaText } from '../../../src/engine/engineering/json-schema';
import { engineeringContractSchema } from '../../../src/engine/engineering/schema';

const repoRoot = resolve(__dirname, '..', '..', '..', '..');

describe('engineering: JSON form schema (schemas/loop-engineering.schema.json)', () => {
  it('is committed exactly as the zod schema generates it', () => {
    const committed = readFileSync(join(repoRoot, 'schemas', 'loop-engineering.schema.json'), 'utf8');
    assert.ok(committed === engineeringJsonSchemaText(), 'run `node scripts/generate-schema.mjs` and commit');
  });

  it('names kind, the 22 fields in snake_case and the two NO_OP keys, as the CLI reads them', () => {
    assert.deepEqual(ENGINEERING_JSON_KEYS, [
      'kind',
      ...REQUIRED_FIELDS.map(snakeKey),
      'no_op',
      'no_op_output_limit',
    ]);
    assert.deepEqual(ENGINEERING_JSON_KEYS, Object.keys(engineeringContractSchema.shape));
  });

  it('accepts a cap as a number and refuses another kind', () => {
    const body = Object.fromEntries(REQUIRED_FIELDS.map((f) => [snakeKey(f), 'x']));
    assert.ok(
      engineeringContractSchema.safeParse({ kind: 'loop-engineering', ...body, max_iterations: 4 }).success,
    );
    assert.ok(!engineeringContractSchema.safeParse({ kind: 'work-loop', ...body }).success);
  });
});
