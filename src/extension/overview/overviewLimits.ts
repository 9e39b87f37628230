/** A ledger of at most this many records is prepared on the host from the tree's own read. */
export const INLINE_RECORDS = 2_000;
