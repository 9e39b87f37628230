// The store: the only code that touches ledger files.
export { sessionIdProblem } from './session-id';
export { ledgerDir, ledgerPath, legacyLedgerDir, legacyLedgerPath, writeTargetOutsideRoot } from './paths';
export { writeFileAtomic, writeFileAtomicSync } from './atomic-write';
export { withLock, LockBusyError, LockObstructedError } from './lock';
export {
  readLedgerFile,
  saveLedgerFile,
  LedgerTooLargeError,
  keepCorruptCopy,
  readRegularFileBytes,
  loadLedgerBytes,
} from './ledger-file';
export type { LedgerRead } from './ledger-file';
export { readLedgerPreferSealed, readLedgerSummarised, appendSealed } from './ledger-sealed';
export { locateLedger } from './locate';
export type { LedgerLocation } from './locate';
export { listSessions } from './discover';
export { caseTwin } from './case-twin';
export type { SessionSummary } from './discover';
