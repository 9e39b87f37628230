// The JSON form's schema is generated from the zod schema; the CLI reads its key list from the
// committed file. Both must agree, and the file must be what the zod schema generates today.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { REQUIRED_FIELDS, snakeKey } from '../../../src/engine/engineering/fields';
import { ENGINEERING_JSON_KEYS } from '../../../src/engine/engineering/json-form';
import { engineeringJsonSchemaText } from '../../../src/engine/engineering/json-schema';
import {
  contractFileEditorSchema,
  contractFileEditorSchemaText,
} from '../../../src/engine/engineering/editor-schema';
import { contractEditorSchema } from '../../../src/engine/contract/json-schema';
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

describe('engineering: the editor schema for JSON contract files (schemas/contract-file.editor.schema.json)', () => {
  type Schema = Record<string, unknown> & { properties?: Record<string, Schema> };
  const schema = contractFileEditorSchema() as Schema;

  it('is committed as generated, and package.json gives it to both contract-file patterns', () => {
    const committed = readFileSync(join(repoRoot, 'schemas', 'contract-file.editor.schema.json'), 'utf8');
    assert.ok(
      committed === contractFileEditorSchemaText(),
      'run `node scripts/generate-schema.mjs` and commit',
    );
    const manifest = JSON.parse(readFileSync(join(repoRoot, 'package.json'), 'utf8'));
    const urls = (pattern: string) =>
      manifest.contributes.jsonValidation
        .filter((v: { fileMatch: string[] }) => v.fileMatch.includes(pattern))
        .map((v: { url: string }) => v.url);
    assert.deepEqual(urls('.loop/contracts/*.json'), ['./schemas/contract-file.editor.schema.json']);
    assert.deepEqual(urls('*.loop-contract.json'), ['./schemas/contract-file.editor.schema.json']);
  });

  it('offers the loop-engineering keys when kind says so, the work-loop ones otherwise', () => {
    assert.deepEqual(schema.if, {
      properties: { kind: { const: 'loop-engineering' } },
      required: ['kind'],
    });
    const then = schema.then as Schema;
    assert.deepEqual(Object.keys(then.properties!), ENGINEERING_JSON_KEYS.slice(1));
    const { $schema: _s, title: _t, ...workLoop } = contractEditorSchema();
    assert.deepEqual(schema.else, workLoop);
    assert.deepEqual((schema.properties!.kind as Schema).examples, ['loop-engineering']);
  });

  it('validates nothing itself: each finding comes once, from the engine', () => {
    const then = schema.then as Schema;
    for (const [key, property] of Object.entries(then.properties!)) {
      assert.deepEqual(Object.keys(property).sort(), ['description', 'markdownDescription'], key);
    }
    assert.deepEqual(Object.keys(schema).sort(), ['$schema', 'else', 'if', 'properties', 'then', 'title']);
  });
});
