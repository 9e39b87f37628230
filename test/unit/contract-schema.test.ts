// The contract schema the editor validates against is generated from the engine's zod schema.
// These tests fail when the committed schemas/contract.schema.json drifts from what the zod
// schema generates (regenerate with `node scripts/generate-schema.mjs`, which the build runs),
// and when a field lacks the hover text or completion help the editor relies on.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { CONTRACT_FIELDS, DIMENSION_KEYS } from '../../src/engine/contract';
import { contractJsonSchema, contractJsonSchemaText } from '../../src/engine/contract/json-schema';

// Bundled to out/test/unit/, so the repository root is three levels up.
const repoRoot = resolve(__dirname, '..', '..', '..');
const committedPath = join(repoRoot, 'schemas', 'contract.schema.json');

type Schema = Record<string, unknown> & { properties?: Record<string, Schema>; items?: Schema };

describe('contract JSON schema (schemas/contract.schema.json)', () => {
  const schema = contractJsonSchema() as Schema;
  const rubricItem = schema.properties!.quality_rubric!.items!;

  it('is committed exactly as the engine zod schema generates it', () => {
    const committed = readFileSync(committedPath, 'utf8');
    assert.ok(
      committed === contractJsonSchemaText(),
      'schemas/contract.schema.json differs from the zod schema in src/engine/contract/schema.ts: ' +
        'run `node scripts/generate-schema.mjs` and commit the result',
    );
  });

  it('is a draft-07 schema of the input side, with every field and dimension key', () => {
    assert.equal(schema.$schema, 'http://json-schema.org/draft-07/schema#');
    assert.deepEqual(Object.keys(schema.properties!), [...CONTRACT_FIELDS]);
    assert.deepEqual(Object.keys(rubricItem.properties!), [...DIMENSION_KEYS]);
  });

  it('gives every field and rubric key a description and a markdownDescription for hover', () => {
    const entries = [
      ...Object.entries(schema.properties!),
      ...Object.entries(rubricItem.properties!).map(
        ([key, value]) => [`quality_rubric[].${key}`, value] as const,
      ),
    ];
    for (const [name, property] of entries) {
      assert.equal(typeof property.description, 'string', `${name} has no description`);
      assert.ok((property.markdownDescription as string).length > 20, `${name} has no markdownDescription`);
    }
  });

  it('lists the two direction words as an enum, each with its own explanation', () => {
    const direction = rubricItem.properties!.direction!;
    assert.deepEqual(direction.enum, ['higher-is-better', 'lower-is-better']);
    assert.equal((direction.markdownEnumDescriptions as string[]).length, 2);
  });

  it('offers a completion snippet for a new rubric dimension carrying every required key', () => {
    const snippets = rubricItem.defaultSnippets as { label: string; body: Record<string, unknown> }[];
    assert.ok(snippets.length >= 1);
    for (const snippet of snippets) {
      for (const key of rubricItem.required as string[]) {
        assert.ok(key in snippet.body, `snippet "${snippet.label}" lacks ${key}`);
      }
    }
  });
});
