// Numbers as a person reads them. The ledger keeps every value exactly as computed
// (34.583333…); what the tree, the status bar, notifications and the panel show is rounded.

const SCORE = new Intl.NumberFormat('en-US', { maximumFractionDigits: 2, useGrouping: false });

/** A score or weighted total (0–100): at most two decimals, no trailing zeros — "34.58", "100". */
export function formatScore(value: number): string {
  return Number.isFinite(value) ? SCORE.format(value) : String(value);
}
