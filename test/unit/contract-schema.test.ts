// The contract schema the editor validates against is generated from the engine's zod schema.
// These tests fail when the committed schemas/contract.schema.json drifts from what the zod
// schema generates (regenerate with `node scripts/generate-schema.mjs`, which the build runs),
// and when a field lacks the hover text or completion help the editor relies on.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { CONTRACT_FIELDS, DIMENSION_KEYS } from '../../src/engine/contract';
import { LIMIT_FIELDS } from '../../src/engine/spend';

/** The twelve fields with the optional caps declared right after iteration_limit. */
const CONTRACT_AND_LIMIT_FIELDS = [
  ...CONTRACT_FIELDS.slice(0, CONTRACT_FIELDS.indexOf('iteration_limit') + 1),
  ...LIMIT_FIELDS,
  ...CONTRACT_FIELDS.slice(CONTRACT_FIELDS.indexOf('iteration_limit') + 1),
  'checkpoint',
];
import {
  contractEditorSchema,
  contractEditorSchemaText,
  contractJsonSchema,
  contractJsonSchemaText,
} from '../../src/engine/contract/json-schema';

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
    assert.deepEqual(Object.keys(schema.properties!), CONTRACT_AND_LIMIT_FIELDS);
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

describe('the editor schema (schemas/contract.editor.schema.json)', () => {
  const editor = contractEditorSchema() as Schema;
  const rubricItem = editor.properties!.quality_rubric!.items!;

  it('is committed as generated, and is the work-loop branch of the schema for contract files', () => {
    const committed = readFileSync(join(repoRoot, 'schemas', 'contract.editor.schema.json'), 'utf8');
    assert.ok(committed === contractEditorSchemaText(), 'run `node scripts/generate-schema.mjs`');
    const manifest = JSON.parse(readFileSync(join(repoRoot, 'package.json'), 'utf8'));
    const forContracts = manifest.contributes.jsonValidation
      .filter((v: { fileMatch: string[] }) => v.fileMatch.includes('.loop/contracts/*.json'))
      .map((v: { url: string }) => v.url);
    // Contract files may hold either kind: their schema picks this one unless `kind` says loop-engineering.
    assert.deepEqual(forContracts, ['./schemas/contract-file.editor.schema.json']);
  });

  it('validates nothing the engine reports itself, so each problem shows once', () => {
    // Hover and completion only: every rule is reported once, by the engine.
    const allowed = new Set([
      '$schema',
      'title',
      'properties',
      'items',
      'description',
      'markdownDescription',
      'defaultSnippets',
      'examples',
    ]);
    const seen = new Set<string>();
    const walk = (node: Schema): void => {
      for (const [key, value] of Object.entries(node)) {
        seen.add(key);
        if (key === 'properties') Object.values(value as Record<string, Schema>).forEach(walk);
        else if (key === 'items') walk(value as Schema);
      }
    };
    walk(editor);
    assert.deepEqual(
      [...seen].filter((k) => !allowed.has(k)),
      [],
    );
  });

  it('keeps every key, its hover text, and completion for the direction words and booleans', () => {
    assert.deepEqual(Object.keys(editor.properties!), CONTRACT_AND_LIMIT_FIELDS);
    assert.deepEqual(Object.keys(rubricItem.properties!), [...DIMENSION_KEYS]);
    const direction = rubricItem.properties!.direction!;
    const words = (direction.defaultSnippets as { body: string; markdownDescription: string }[]).map(
      (s) => s.body,
    );
    assert.deepEqual(words, ['higher-is-better', 'lower-is-better']);
    assert.deepEqual(rubricItem.properties!.hard_gate!.examples, [true, false]);
    assert.ok((rubricItem.defaultSnippets as unknown[]).length >= 1, 'the new-dimension snippets stay');
  });
});
