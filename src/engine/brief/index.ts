// The critic brief: packet assembly, its id, and the parsers it is built from.
export { brief } from './command';
export type { BriefInput, BriefInputs, BriefResult, DiffInput } from './command';
export { BRIEF_ASKS } from './packet';
export type { BriefPacket, DiffText } from './packet';
export { briefId } from './brief-id';
export { diffPaths } from './diff-paths';
export { Utf8Diff } from './utf8-diff';
export { declaredPaths } from './change-scope';
export { coverageFindings, undeclaredPaths, scopeCoverage } from './coverage';
export { pythonJsonDumps, pythonFloatRepr } from './python-json';
