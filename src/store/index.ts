// The store: the only code that touches ledger files.
export { sessionIdProblem, quoteSessionId, InvalidSessionIdError } from './session-id';
export { ledgerDir, ledgerPath, legacyLedgerDir, legacyLedgerPath, writeTargetOutsideRoot } from './paths';
export { writeFileAtomic, writeFileAtomicSync } from './atomic-write';
export { withLock, LockBusyError, LockObstructedError, LOCK_STALE_MS } from './lock';
export type { LockHolder } from './lock';
export {
  SCHEMA_VERSION,
  readLedgerFile,
  parseLedgerText,
  serializeLedger,
  saveLedgerFile,
  LedgerTooLargeError,
  keepCorruptCopy,
  readRegularFileBytes,
  loadLedgerBytes,
} from './ledger-file';
export type { LedgerRead, LedgerFormat } from './ledger-file';
export type { RecordsSpan } from './json-scan';
export { LEDGER_SIZE_LIMIT } from './limits';
export type { PreviousText } from './ledger-layout';
export { readLedgerPreferSealed, appendSealed } from './ledger-sealed';
export type { SealedLedger } from './ledger-sealed';
export { locateLedger } from './locate';
export type { LedgerLocation } from './locate';
export { listSessions } from './discover';
export { caseTwin } from './case-twin';
export type { SessionSummary } from './discover';
