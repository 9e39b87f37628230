// The critic brief: packet assembly, its id, and the parsers it is built from.
export { brief } from './command';
export type { BriefInput, BriefInputs, BriefResult } from './command';
export { assemblePacket, BRIEF_ASKS } from './packet';
export type { BriefPacket, BriefScope, PacketParts } from './packet';
export { briefId } from './brief-id';
export type { BriefIdParts } from './brief-id';
export { diffPaths } from './diff-paths';
export { declaredPaths } from './change-scope';
export { coverageFindings, undeclaredPaths, scopeCoverage } from './coverage';
export { pythonJsonDumps, pythonFloatRepr } from './python-json';
