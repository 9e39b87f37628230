// The `--spec` grammar of repeat-until-settled, step by step and in order:
// empty → refuse; a literal `max=N` token anywhere is the cap (removed from the text); the first
// ` then ` (case-insensitive, whitespace both sides) splits inner from follow-up, unless what
// follows does not start with a skill-like name (a false positive: "then" was an inner argument);
// further `then`s are reported as ignored. Natural-language caps are never parsed, only noted.

export interface RepeatSpec {
  inner: string;
  followUp: string | null;
  /** Exactly this many inner runs at most; null = no cap. */
  max: number | null;
  /** One line each: what the parser noticed but did not act on. */
  notes: string[];
}

export type SpecParse = { ok: true; spec: RepeatSpec } | { ok: false; message: string };

const CAP_TOKEN = /^max=(.*)$/;
const SEPARATOR = /\s+then\s+/i;
const SEPARATORS = /\s+then\s+/gi;
const SKILL_NAME = /^[a-z0-9-]+$/;
/** Phrases that read like a cap but are deliberately not parsed (they collide with inner args). */
const NATURAL_CAP =
  /\b(?:up to|at most|no more than|maximum of)\s+\d+\b|\b\d+\s+(?:times|iterations|rounds)\b/i;

export const NATURAL_CAP_NOTE =
  'I see what looks like an iteration cap in your request. Please re-invoke with max=N to apply it, or confirm you want me to ignore it.';
export const NO_FOLLOW_UP_NOTE =
  'no follow-up parsed: the text after "then" does not start with a skill name';

/** Splits on whitespace runs, keeping them, so removing a token leaves the rest as written. */
function tokens(text: string): string[] {
  return text.split(/(\s+)/).filter((t) => t !== '');
}

function extractCap(text: string): { rest: string; max: number | null } | { error: string } {
  const parts = tokens(text);
  const caps = parts.filter((t) => CAP_TOKEN.test(t));
  if (caps.length === 0) return { rest: text, max: null };
  if (caps.length > 1)
    return { error: `--spec: max= given ${caps.length} times (${caps.join(', ')}); give one` };
  const token = caps[0] as string;
  const value = (CAP_TOKEN.exec(token) as RegExpExecArray)[1] as string;
  if (!/^[0-9]+$/.test(value)) return { error: `--spec: ${token} is not a whole number of iterations` };
  const max = Number(value);
  if (max < 1 || !Number.isSafeInteger(max)) {
    return { error: `--spec: ${token} must allow at least one iteration (max=1 or more)` };
  }
  const at = parts.indexOf(token);
  // Drop the token and the whitespace before it (or after it, when it opens the string).
  const before = at > 0 && /^\s+$/.test(parts[at - 1] ?? '') ? at - 1 : at;
  const after = before === at && /^\s+$/.test(parts[at + 1] ?? '') ? at + 2 : at + 1;
  return { rest: [...parts.slice(0, before), ...parts.slice(after)].join('').trim(), max };
}

export function parseRepeatSpec(raw: string): SpecParse {
  const text = raw.trim();
  if (text === '') return { ok: false, message: '--spec is empty: name the step to repeat' };
  const cap = extractCap(text);
  if ('error' in cap) return { ok: false, message: cap.error };
  const notes: string[] = [];
  const rest = cap.rest;
  if (rest === '') return { ok: false, message: '--spec: nothing to repeat besides the max= cap' };
  if (NATURAL_CAP.test(rest)) notes.push(NATURAL_CAP_NOTE);
  const found = SEPARATOR.exec(rest);
  if (!found) return { ok: true, spec: { inner: rest, followUp: null, max: cap.max, notes } };
  const inner = rest.slice(0, found.index).trim();
  const right = rest.slice(found.index + found[0].length).trim();
  const firstToken = right.split(/\s+/)[0] ?? '';
  if (!SKILL_NAME.test(firstToken)) {
    notes.push(NO_FOLLOW_UP_NOTE);
    return { ok: true, spec: { inner: rest, followUp: null, max: cap.max, notes } };
  }
  if (inner === '') return { ok: false, message: '--spec: nothing to repeat before "then"' };
  const extras = right.match(SEPARATORS)?.length ?? 0;
  if (extras > 0) {
    notes.push(
      `${extras} further "then" ignored: only the first separates (one follow-up; "${right}" runs as written)`,
    );
  }
  return { ok: true, spec: { inner, followUp: right, max: cap.max, notes } };
}
