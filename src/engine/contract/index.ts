// Contract validation: the schema (shape), placeholder detection, the static evidence-command
// checks and the full validator.
export {
  contractSchema,
  rubricDimensionSchema,
  directionSchema,
  CONTRACT_FIELDS,
  DIMENSION_KEYS,
  REQUIRED_DIMENSION_KEYS,
  OPTIONAL_DIMENSION_KEYS,
  type ContractInput,
  type RubricDimensionInput,
  type ContractField,
} from './schema';
export { findPlaceholders, hasPlaceholder } from './placeholder';
export { checkEvidenceCommand, type ProgramResolver } from './evidence-command';
export { validateContract, formatPath, type ContractValidation } from './validate';
