// Plain constants without zod: the overview page's bundle imports them.
/**
 * The names of an iteration record's fields as the overview's side panel shows them ("in
 * words"): the host sends these keys (engine/overview/model.ts, recordInWords) and the page
 * translates each through the table like any other word.
 */
export const RECORD_FIELDS = [
  'outcome',
  'reported outcome',
  'timestamp',
  'epoch',
  'stall',
  'decision',
  'critic verdict',
  'critic next',
  'critic brief',
  'weighted total',
  'measurements',
  'actions',
  'files changed',
  'commands run',
  'evidence paths',
  'evidence',
  'note',
  'blocker',
  'recommended next',
  'cost usd',
  'tokens in',
  'tokens out',
  'classification',
  'change metric',
] as const;
export type RecordField = (typeof RECORD_FIELDS)[number];
