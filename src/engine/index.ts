// The engine's public surface: pure rules over plain data. Shells (CLI, extension) do the I/O.
export * from './types';
export * from './refusal';
export { deriveBaseline } from './baseline';
export { scoreRubric, gateFailed } from './score';
export { parseMeasurements } from './measurements';
export { parsePythonFloat } from './python-float';
export { errorSignature, stateHash, normaliseError } from './signature';
export { detectStall } from './stall';
export { iterate, type IterateInput, type IterateResult } from './iterate';
export { open, openPrecheck, type OpenInput, type OpenPayload } from './open';
export { checkBaselineEvidence, transcriptHasNumber, type BaselineEvidence } from './baseline-evidence';
export { status, type StatusPayload } from './status';
export { resume, type ResumePayload } from './resume';
export { close, type CloseInput } from './close';
export { score } from './score-command';
export { currentEpoch, epochRecords, utcStamp, sortKeysDeep } from './ledger-view';
