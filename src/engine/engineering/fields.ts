// The loop-engineering contract's vocabulary: the 22 required fields, their aliases,
// the JSON form's snake_case keys, and the mode and topology words. One table, read by the
// line-grammar parser, the JSON form, the validator, the editor's completion and quick fixes.

/** The 22 fields every loop-engineering contract must fill, by their line-grammar names. */
export const REQUIRED_FIELDS = [
  'objective',
  'mode',
  'trigger',
  'scope',
  'non-goals',
  'owner',
  'inputs',
  'artifacts path',
  'state path',
  'work clock',
  'success metric',
  'evidence',
  'verifier',
  'topology',
  'max iterations',
  'time limit',
  'budget',
  'review budget',
  'stop condition',
  'write-back',
  'permission boundary',
  'recovery',
] as const;
export type RequiredField = (typeof REQUIRED_FIELDS)[number];

/** Other names the original accepts for a field (the key is read as the value). */
export const FIELD_ALIASES: Readonly<Record<string, RequiredField>> = {
  'global work clock': 'work clock',
  'change budget': 'review budget',
  'review bandwidth': 'review budget',
};

/**
 * Optional fields the 22 lack, which Loop Ledger reads to allow a NO_OP iteration: the
 * eligibility query that proves there was no work, and how many outputs a quiet iteration may
 * still produce (default 0). The original keeps them as unchecked extra lines.
 */
export const NO_OP_FIELD = 'no-op';
export const NO_OP_OUTPUT_LIMIT_FIELD = 'no-op output limit';

/** The caps `open --engineering` enforces. */
export const CAP_FIELDS = ['max iterations', 'time limit', 'budget', 'review budget'] as const;
export type CapField = (typeof CAP_FIELDS)[number];

export const MODES = ['goal', 'loop', 'automation', 'autoresearch'] as const;
export type Mode = (typeof MODES)[number];
/** How each mode is written in prose and quick fixes. */
export const MODE_WORDS: Readonly<Record<Mode, string>> = {
  goal: 'Goal',
  loop: 'Loop',
  automation: 'Automation',
  autoresearch: 'AutoResearch',
};
export const MODE_ALIASES: Readonly<Record<string, Mode>> = {
  'goal-oriented agent': 'goal',
  'interval loop': 'loop',
  'scheduled loop': 'automation',
};

export const TOPOLOGIES = ['single-agent', 'maker-checker', 'manager-workers'] as const;
export type Topology = (typeof TOPOLOGIES)[number];

/** Values that count as "not filled in" (compared after lower-casing and collapsing whitespace). */
export const EMPTY_MARKERS: ReadonlySet<string> = new Set([
  '',
  '-',
  'n/a',
  'na',
  'none',
  'tbd',
  'todo',
  'unknown',
]);

/** A field's key in the JSON form and in finding codes: `non-goals` → `non_goals`. */
export function snakeKey(field: string): string {
  return field.replace(/[ -]/g, '_');
}

/** How a field's name is written in a `.loop.md` file: `artifacts path` → `Artifacts path`. */
export function displayName(field: string): string {
  return field.charAt(0).toUpperCase() + field.slice(1);
}

/** Every name the line grammar recognises anywhere on a line, longest first. */
export const KNOWN_NAMES: readonly string[] = [...REQUIRED_FIELDS, ...Object.keys(FIELD_ALIASES)].sort(
  (a, b) => b.length - a.length,
);
