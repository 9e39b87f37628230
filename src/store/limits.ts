// Size caps for the files Loop Ledger reads, in one place: the CLI and the extension refuse the
// same files for the same reason. A ledger of 100,000 iterations is about 100 MB.
export const MiB = 1024 * 1024;
/** A ledger file larger than this is listed as unreadable, never read into memory. */
export const LEDGER_SIZE_LIMIT = 256 * MiB;
