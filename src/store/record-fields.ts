// The few fields of an iteration record that the session overview's charts read, taken straight
// from the record's bytes (one record, as this store writes it: compact JSON on one line) without
// building the rest of the record. A 100,000-iteration ledger is ~100 MB; JSON.parse builds some
// fifty objects and strings per record only for the charts to read a dozen numbers and words.
//
// The bytes are checked as JSON.parse checks them (every value's syntax, escapes, control
// characters; UTF-8 is the caller's check), so a record this accepts is one JSON.parse accepts,
// and each field kept has the value JSON.parse gives it. Anything this does not vouch for
// returns null and the caller reads the ledger in full: a blank anywhere in the record (another
// writer's layout), nesting deeper than MAX_DEPTH, a key it reads written twice, a field of a
// type the ledger's shape check would refuse. Pure: bytes in, values out.
import {
  BACKSLASH,
  CLOSE_LIST,
  CLOSE_OBJECT,
  COLON,
  COMMA,
  OPEN_LIST,
  OPEN_OBJECT,
  QUOTE,
} from './json-bytes';

/** What a record keeps of itself; every other key is read past (and checked) but not built. */
export interface RecordFields {
  n: number;
  epoch?: number | null;
  outcome?: string;
  stall?: string | null;
  critic_verdict?: string | null;
  critic_brief?: string | null;
  evaluation?: {
    dimensions?: { dimension?: string; measured?: number | null; gate_failed?: boolean }[] | null;
    weighted_total?: number | null;
    verdict?: string | null;
  } | null;
  /** Only the keys named in `measured` (with number values); a prototype-free object. */
  measurements?: Record<string, number> | null;
  cost_usd?: number;
  tokens_in?: number;
  tokens_out?: number;
  /** Parsed in full, only when asked (a repeat's rows, a work order's phases). */
  repeat?: unknown;
  actions?: unknown;
}

/** Deeper records are the full read's (JSON.parse has no such limit; this scanner recurses). */
const MAX_DEPTH = 64;

/** Keys read at a record's top level, by id (bit positions of the "seen" mask). */
const TOP_KEYS = [
  'n',
  'epoch',
  'outcome',
  'stall',
  'critic_verdict',
  'critic_brief',
  'evaluation',
  'measurements',
  'cost_usd',
  'tokens_in',
  'tokens_out',
  'repeat',
  'actions',
] as const;
const EVALUATION_KEYS = ['dimensions', 'weighted_total', 'verdict'] as const;
const DIMENSION_KEYS = ['dimension', 'measured', 'gate_failed'] as const;

/** Known keys as bytes, grouped by length, for a match without making a string per key. */
type KeyTable = ({ ids: number[]; keys: Uint8Array[] } | undefined)[];
/** The table of `keys` (a key given twice matches its first id); packed lists, no holes to step over. */
function keyTable(keys: readonly string[]): KeyTable {
  const table: KeyTable = [];
  keys.forEach((key, id) => {
    if (keys.indexOf(key) !== id) return;
    // Keys by their UTF-8 bytes (valid UTF-8 spells a text one way).
    const bytes = Buffer.from(key, 'utf8');
    const group = (table[bytes.length] ??= { ids: [], keys: [] });
    group.ids.push(id);
    group.keys.push(bytes);
  });
  return table;
}
const TOP = keyTable(TOP_KEYS);
const EVALUATION = keyTable(EVALUATION_KEYS);
const DIMENSION = keyTable(DIMENSION_KEYS);

class Doubt extends Error {}
const DOUBT = new Doubt('not vouched for');

// The scanner's state while one record is read (module-level: no closure or object per call).
let b: Buffer = Buffer.alloc(0);
let at = 0;
let end = 0;
/** Set by `string()`: whether the string just read holds an escape or a byte over 0x7f. */
let plain = true;

function fail(): never {
  throw DOUBT;
}

/** 1 for the bytes a string holds as they are: ASCII, no quote, backslash or control character. */
const ORDINARY = new Uint8Array(256);
for (let c = 0x20; c < 0x80; c += 1) ORDINARY[c] = c === QUOTE || c === BACKSLASH ? 0 : 1;

/** Reads a string at `at` (its opening quote); returns where its text starts. `at` is past it. */
function string(): number {
  let i = at + 1;
  let isPlain = true;
  for (;;) {
    if (i >= end) fail();
    const c = b[i]!;
    if (ORDINARY[c] === 1) {
      // Most bytes of a text: one look-up instead of four comparisons.
      i += 1;
      continue;
    }
    if (c === QUOTE) break;
    if (c === BACKSLASH) {
      isPlain = false;
      const e = b[i + 1];
      if (e === 0x75) {
        // \uXXXX: four hex digits
        for (let k = 2; k < 6; k += 1) {
          const h = b[i + k];
          if (
            h === undefined ||
            !((h >= 0x30 && h <= 0x39) || (h >= 0x41 && h <= 0x46) || (h >= 0x61 && h <= 0x66))
          )
            fail();
        }
        i += 6;
        continue;
      }
      if (
        e !== QUOTE &&
        e !== BACKSLASH &&
        e !== 0x2f &&
        e !== 0x62 &&
        e !== 0x66 &&
        e !== 0x6e &&
        e !== 0x72 &&
        e !== 0x74
      )
        fail();
      i += 2;
      continue;
    }
    if (c < 0x20) fail(); // a raw control character: JSON.parse refuses it
    if (c > 0x7f) isPlain = false;
    i += 1;
  }
  const start = at + 1;
  at = i + 1;
  plain = isPlain;
  return start;
}

/**
 * Recently made short texts, by their bytes: a ledger repeats a handful of outcomes, verdicts and
 * dimension names, and looking one up costs less than making the string again. The bytes of each
 * slot live in one fixed array (a miss copies into it: no object made but the new string).
 */
const RECENT = 64;
const RECENT_MAX = 32;
const recentBytes = new Uint8Array(RECENT * RECENT_MAX);
const recentLength = new Int32Array(RECENT).fill(-1);
const recentText: string[] = new Array<string>(RECENT).fill('');

/** The text of the string [start, at - 1), as JSON.parse decodes it. */
function text(start: number): string {
  const close = at - 1;
  const length = close - start;
  if (plain && length <= RECENT_MAX) {
    // A slot per (length, first, last byte): collisions only cost a new string.
    const slot = (length * 31 + (b[start] ?? 0) * 7 + (b[close - 1] ?? 0)) & (RECENT - 1);
    const base = slot * RECENT_MAX;
    if (recentLength[slot] === length) {
      let k = 0;
      while (k < length && recentBytes[base + k] === b[start + k]) k += 1;
      if (k === length) return recentText[slot]!;
    }
    const made = b.toString('latin1', start, close);
    for (let k = 0; k < length; k += 1) recentBytes[base + k] = b[start + k]!; // the buffer is reused
    recentLength[slot] = length;
    recentText[slot] = made;
    return made;
  }
  if (plain) return b.toString('latin1', start, close);
  return JSON.parse(b.toString('utf8', start - 1, close + 1)) as string;
}

function isDigit(c: number | undefined): boolean {
  return c !== undefined && c >= 0x30 && c <= 0x39;
}

/**
 * Exact powers of ten as doubles (10^0 … 10^22 are all exactly representable): a decimal of at most
 * 15 digits is its digits as an integer (exact, < 2^53) divided by one of these, and one IEEE
 * division of two exact values is correctly rounded — the value Number() and JSON.parse give.
 */
const POWERS_OF_TEN = Array.from({ length: 23 }, (_, k) => 10 ** k);

/** Reads a number at `at` in JSON's grammar and returns its value (as JSON.parse reads it). */
function number(): number {
  const start = at;
  let i = at;
  const negative = b[i] === 0x2d;
  if (negative) i += 1;
  // The digits are gathered as one integer while they are checked (no string made): exact up to
  // 15 of them, which is every number a ledger's charts read but long fractions.
  let digits = 0;
  let value = 0;
  let c = b[i];
  if (c === 0x30) {
    i += 1;
    digits = 1;
  } else if (c !== undefined && c >= 0x31 && c <= 0x39) {
    do {
      value = value * 10 + (c - 0x30);
      digits += 1;
      i += 1;
      c = b[i];
    } while (c !== undefined && c >= 0x30 && c <= 0x39);
  } else fail();
  let fraction = 0;
  if (b[i] === 0x2e) {
    i += 1;
    c = b[i];
    if (c === undefined || c < 0x30 || c > 0x39) fail();
    do {
      value = value * 10 + (c - 0x30);
      digits += 1;
      fraction += 1;
      i += 1;
      c = b[i];
    } while (c !== undefined && c >= 0x30 && c <= 0x39);
  }
  let exponent = false;
  if (b[i] === 0x65 || b[i] === 0x45) {
    exponent = true;
    i += 1;
    if (b[i] === 0x2b || b[i] === 0x2d) i += 1;
    if (!isDigit(b[i])) fail();
    while (isDigit(b[i])) i += 1;
  }
  if (i > end) fail();
  at = i;
  if (!exponent && digits <= 15) {
    const exact = fraction === 0 ? value : value / POWERS_OF_TEN[fraction]!;
    return negative ? -exact : exact;
  }
  // Anything longer by the same correctly rounded conversion JSON.parse uses.
  return Number(b.toString('latin1', start, i));
}

function literal(word: readonly number[]): void {
  for (let k = 0; k < word.length; k += 1) if (b[at + k] !== word[k]) fail();
  at += word.length;
  if (at > end) fail();
}
const TRUE = [0x74, 0x72, 0x75, 0x65];
const FALSE = [0x66, 0x61, 0x6c, 0x73, 0x65];
const NULL = [0x6e, 0x75, 0x6c, 0x6c];

/** Checks and passes over any value at `at`. */
function skip(depth: number): void {
  const c = b[at];
  if (c === QUOTE) string();
  else if (c === OPEN_OBJECT) {
    if (depth >= MAX_DEPTH) fail();
    at += 1;
    if (b[at] === CLOSE_OBJECT) {
      at += 1;
      return;
    }
    for (;;) {
      if (b[at] !== QUOTE) fail();
      string();
      if (b[at] !== COLON) fail();
      at += 1;
      skip(depth + 1);
      const next = b[at];
      at += 1;
      if (next === CLOSE_OBJECT) return;
      if (next !== COMMA) fail();
    }
  } else if (c === OPEN_LIST) {
    if (depth >= MAX_DEPTH) fail();
    at += 1;
    if (b[at] === CLOSE_LIST) {
      at += 1;
      return;
    }
    for (;;) {
      skip(depth + 1);
      const next = b[at];
      at += 1;
      if (next === CLOSE_LIST) return;
      if (next !== COMMA) fail();
    }
  } else if (c === 0x74) literal(TRUE);
  else if (c === 0x66) literal(FALSE);
  else if (c === 0x6e) literal(NULL);
  else if (c === 0x2d || isDigit(c)) number();
  else fail();
  if (at > end) fail();
}

/** The parsed value at `at` (JSON.parse of exactly its bytes), `at` past it. */
function parsed(depth: number): unknown {
  const start = at;
  skip(depth);
  return JSON.parse(b.toString('utf8', start, at)) as unknown;
}

/** Whether the value at `at` is `null` (then read past it). */
function isNull(): boolean {
  if (b[at] !== 0x6e) return false;
  literal(NULL);
  return true;
}

/** The id of the key just read (its text from `start`) in `table`, or -1. */
function keyId(start: number, table: KeyTable, names: readonly string[]): number {
  if (!plain) return names.indexOf(text(start)); // escaped: compared as decoded text
  const length = at - 1 - start;
  const group = table[length];
  if (group === undefined) return -1;
  const keys = group.keys;
  for (let j = 0; j < keys.length; j += 1) {
    const key = keys[j]!;
    let k = 0;
    while (k < length && b[start + k] === key[k]) k += 1;
    if (k === length) return group.ids[j]!;
  }
  return -1;
}

function stringOrNull(): string | null {
  if (isNull()) return null;
  if (b[at] !== QUOTE) fail();
  return text(string());
}

function numberOrNull(): number | null {
  if (isNull()) return null;
  const c = b[at];
  if (c !== 0x2d && !isDigit(c)) fail();
  return number();
}

/** A number when the value is one, else undefined (the value read past, as the charts ignore it). */
function numberIfAny(depth: number): number | undefined {
  const c = b[at];
  if (c === 0x2d || isDigit(c)) return number();
  skip(depth);
  return undefined;
}

/** What the scan keeps of `measurements`: the named keys with number values. */
let measuredBytes: KeyTable = [];
let measuredList: string[] = [];
/** Whether a name needs an object without a prototype (`__proto__` as a plain key would not stick). */
let measuredProtoFree = false;
/** Per name id, the stamp of the last record that held it (a key written twice is refused). */
let measuredSeen = new Int32Array(0);
let measuredStamp = 0;

function measurements(depth: number): Record<string, number> | null {
  if (isNull()) return null;
  if (b[at] !== OPEN_OBJECT) fail();
  // A plain object unless a name asks otherwise: a prototype-free one is a slow dictionary, and
  // a name like `toString` missing from the record reads as a function, which is no number.
  const out = (measuredProtoFree ? Object.create(null) : {}) as Record<string, number>;
  measuredStamp = (measuredStamp + 1) | 0;
  const stamp = measuredStamp;
  at += 1;
  if (b[at] === CLOSE_OBJECT) {
    at += 1;
    return out;
  }
  for (;;) {
    if (b[at] !== QUOTE) fail();
    const start = string();
    const id = keyId(start, measuredBytes, measuredList);
    if (b[at] !== COLON) fail();
    at += 1;
    if (id < 0) skip(depth + 1);
    else {
      if (measuredSeen[id] === stamp) fail(); // written twice
      measuredSeen[id] = stamp;
      const value = numberIfAny(depth + 1);
      if (value !== undefined) out[measuredList[id]!] = value;
    }
    const next = b[at];
    at += 1;
    if (next === CLOSE_OBJECT) break;
    if (next !== COMMA) fail();
  }
  return out;
}

function dimensionEntry(depth: number): {
  dimension?: string;
  measured?: number | null;
  gate_failed?: boolean;
} {
  if (b[at] !== OPEN_OBJECT) fail();
  const out: { dimension?: string; measured?: number | null; gate_failed?: boolean } = {};
  let seen = 0;
  at += 1;
  if (b[at] === CLOSE_OBJECT) {
    at += 1;
    return out;
  }
  for (;;) {
    if (b[at] !== QUOTE) fail();
    const id = keyId(string(), DIMENSION, DIMENSION_KEYS);
    if (b[at] !== COLON) fail();
    at += 1;
    if (id >= 0) {
      if (seen & (1 << id)) fail();
      seen |= 1 << id;
    }
    if (id === 0) {
      if (b[at] !== QUOTE) fail();
      out.dimension = text(string());
    } else if (id === 1) out.measured = numberOrNull();
    else if (id === 2) {
      if (b[at] === 0x74) {
        literal(TRUE);
        out.gate_failed = true;
      } else if (b[at] === 0x66) {
        literal(FALSE);
        out.gate_failed = false;
      } else fail();
    } else skip(depth + 1);
    const next = b[at];
    at += 1;
    if (next === CLOSE_OBJECT) return out;
    if (next !== COMMA) fail();
  }
}

function evaluation(depth: number): RecordFields['evaluation'] {
  if (isNull()) return null;
  if (b[at] !== OPEN_OBJECT) fail();
  const out: NonNullable<RecordFields['evaluation']> = {};
  let seen = 0;
  at += 1;
  if (b[at] === CLOSE_OBJECT) {
    at += 1;
    return out;
  }
  for (;;) {
    if (b[at] !== QUOTE) fail();
    const id = keyId(string(), EVALUATION, EVALUATION_KEYS);
    if (b[at] !== COLON) fail();
    at += 1;
    if (id >= 0) {
      if (seen & (1 << id)) fail();
      seen |= 1 << id;
    }
    if (id === 0) {
      if (isNull()) out.dimensions = null;
      else {
        if (b[at] !== OPEN_LIST) fail();
        const list: NonNullable<NonNullable<RecordFields['evaluation']>['dimensions']> = [];
        at += 1;
        if (b[at] === CLOSE_LIST) at += 1;
        else
          for (;;) {
            list.push(dimensionEntry(depth + 2));
            const next = b[at];
            at += 1;
            if (next === CLOSE_LIST) break;
            if (next !== COMMA) fail();
          }
        out.dimensions = list;
      }
    } else if (id === 1) out.weighted_total = numberOrNull();
    else if (id === 2) out.verdict = stringOrNull();
    else skip(depth + 1);
    const next = b[at];
    at += 1;
    if (next === CLOSE_OBJECT) return out;
    if (next !== COMMA) fail();
  }
}

/** Which of `repeat` and `actions` to parse in full (they are read past otherwise). */
export interface FieldWants {
  repeat: boolean;
  actions: boolean;
}

/**
 * The fields of the record that is exactly `bytes[from, to)`, or null when the bytes are not one
 * record this scanner vouches for. `measured`: the measurement names to keep (the rubric's).
 */
export function recordFields(
  bytes: Buffer,
  from: number,
  to: number,
  measured: readonly string[],
  wants: FieldWants,
): RecordFields | null {
  if (measuredList !== measured) useNames(measured);
  b = bytes;
  at = from;
  end = to;
  try {
    const out = record(wants);
    return at === to ? out : null;
  } catch (error) {
    if (error === DOUBT || error instanceof SyntaxError) return null;
    throw error;
  } finally {
    b = EMPTY;
  }
}
const EMPTY = Buffer.alloc(0);

function useNames(names: readonly string[]): void {
  measuredList = names as string[];
  measuredBytes = keyTable(names);
  measuredProtoFree = names.includes('__proto__');
  measuredSeen = new Int32Array(names.length);
  measuredStamp = 0;
}

function record(wants: FieldWants): RecordFields {
  if (b[at] !== OPEN_OBJECT) fail();
  const out = { n: NaN } as RecordFields;
  let seen = 0;
  at += 1;
  if (b[at] === CLOSE_OBJECT) fail(); // no `n`
  for (;;) {
    if (b[at] !== QUOTE) fail();
    const id = keyId(string(), TOP, TOP_KEYS);
    if (b[at] !== COLON) fail();
    at += 1;
    if (id >= 0) {
      if (seen & (1 << id)) fail();
      seen |= 1 << id;
    }
    switch (id) {
      case 0: {
        const c = b[at];
        if (c !== 0x2d && !isDigit(c)) fail();
        out.n = number();
        if (!Number.isFinite(out.n)) fail();
        break;
      }
      case 1:
        out.epoch = numberOrNull();
        break;
      case 2:
        if (b[at] !== QUOTE) fail();
        out.outcome = text(string());
        break;
      case 3:
        out.stall = stringOrNull();
        break;
      case 4:
        out.critic_verdict = stringOrNull();
        break;
      case 5:
        out.critic_brief = stringOrNull();
        break;
      case 6:
        out.evaluation = evaluation(1);
        break;
      case 7:
        out.measurements = measurements(1);
        break;
      case 8:
      case 9:
      case 10: {
        const value = numberIfAny(1);
        if (value !== undefined) out[TOP_KEYS[id] as 'cost_usd'] = value;
        break;
      }
      case 11:
        if (wants.repeat) out.repeat = parsed(1);
        else skip(1);
        break;
      case 12:
        if (wants.actions) out.actions = parsed(1);
        else skip(1);
        break;
      default:
        skip(1);
    }
    const next = b[at];
    at += 1;
    if (next === CLOSE_OBJECT) break;
    if (next !== COMMA) fail();
  }
  if ((seen & 1) === 0 || out.outcome === undefined) fail(); // every record has both
  return out;
}
