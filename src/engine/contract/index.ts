// Contract validation: the schema (shape), placeholder detection, the static evidence-command
// checks and the full validator.
export { contractSchema, CONTRACT_FIELDS, DIMENSION_KEYS, REQUIRED_DIMENSION_KEYS } from './schema';
export { findPlaceholders, hasPlaceholder } from './placeholder';
export { checkEvidenceCommand } from './evidence-command';
export { validateContract, formatPath } from './validate';
