import assert from 'node:assert/strict';
import {
  CONTRACT_FIELDS,
  DIMENSION_KEYS,
  REQUIRED_DIMENSION_KEYS,
  directionSchema,
} from '../../../src/engine/contract/schema';
import {
  CONTRACT_FIELD_NAMES,
  DIMENSION_KEY_NAMES,
  DIRECTION_WORDS,
  REQUIRED_DIMENSION_KEY_NAMES,
} from '../../../src/engine/contract/shape';
import { DIRECTIONS } from '../../../src/engine/types';

// The validator reads the contract's shape from the generated JSON schema; these must be exactly
// what the zod schema (the single source) says, or the schema file is stale.
describe('engine: contract shape read from the generated schema', () => {
  it('matches the zod schema key for key', () => {
    assert.deepEqual(CONTRACT_FIELD_NAMES, [...CONTRACT_FIELDS]);
    assert.deepEqual(DIMENSION_KEY_NAMES, [...DIMENSION_KEYS]);
    assert.deepEqual(REQUIRED_DIMENSION_KEY_NAMES, [...REQUIRED_DIMENSION_KEYS]);
    assert.deepEqual(DIRECTION_WORDS, [...directionSchema.options]);
    assert.deepEqual(DIRECTION_WORDS, [...DIRECTIONS]);
    assert.equal(CONTRACT_FIELD_NAMES.length, 12);
  });
});
