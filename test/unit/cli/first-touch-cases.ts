// Long ledgers as the original engine wrote them (Python's `json.dumps(indent=2,
// sort_keys=True)`: ASCII only, no seal), each crafted to attack the first touch's
// record-by-record read (src/store/ledger-sliced.ts and its WebAssembly pass, json-keys.wat):
// a step of the read ending at an awkward byte, strings and keys full of brackets and escapes,
// blanks that must not be dropped, repeated keys, bytes outside ASCII, lists that are not
// records, a header that goes wrong after the records. Used by first-touch-differential.test.ts.
import type { Ledger } from '../../../src/engine/types';
import { KEYS_PROOF_FROM_BYTES } from '../../../src/store/json-scan';
import { SLICED_CHUNK_BYTES } from '../../../src/store/ledger-sliced';
import { pythonDumps } from '../helpers/python-json';
import { sampleLedger } from '../store/fixtures/sample-ledger';

/** The read's step: boundaries fall at every multiple of it in the file. */
const STEP = SLICED_CHUNK_BYTES;

export interface FirstTouchCase {
  name: string;
  bytes: Buffer;
  /** Whether the full read accepts the file (every command then exits 0). */
  valid: boolean;
  /**
   * Whether `status` and `iterate` must read it record by record through the pass (true), must
   * not (false: bytes outside ASCII), or either (undefined: the pass may decline what it cannot
   * prove, at the cost of a slower read).
   */
  sliced?: boolean;
}

type AnyLedger = Ledger & Record<string, unknown>;
type AnyRecord = Record<string, unknown>;

/** Records of ~4 KB: the file passes KEYS_PROOF_FROM_BYTES, so `status` takes the pass too. */
const COUNT = 400;
const NOTE = 'p'.repeat(3300);

/** A ledger of COUNT records with errors, states, stalls, verdicts and costs in two epochs. */
function baseLedger(): AnyLedger {
  const ledger = sampleLedger('s1', COUNT) as AnyLedger;
  ledger.contract.iteration_limit = 100_000;
  ledger.completed_actions = ledger.iterations.map((r) => (r.actions as string[])[0] as string);
  ledger.epoch = 2;
  ledger.iterations = ledger.iterations.map((record, i) => {
    const n = i + 1;
    return {
      ...record,
      note: `note ${n} ${NOTE}`,
      epoch: n > COUNT - 5 ? 2 : 1,
      error_signature: n % 7 === 0 ? `sig-${n % 3}` : null,
      state_hash: `st-${n % 50}`,
      stall: n % 101 === 0 ? 'circular-state' : null,
      critic_verdict: n === COUNT - 20 ? 'PASS' : null,
      ...(n % 9 === 0 && { cost_usd: 0.25, tokens_in: 100, tokens_out: 7 }),
    };
  });
  return ledger;
}

/** One attack on a file: on one record of it, on its text, or on where a step ends. */
interface Craft {
  /** Changes the parsed ledger; `at` is the index of the record to attack. */
  edit?: (ledger: AnyLedger, at: number) => void;
  /** Then changes the file's text (after every attack's edit). */
  text?: (text: string) => string;
  /**
   * Where a step must begin: an index into the crafted text, moved by the attacked record (or,
   * without an edit, by every record: the list's end).
   */
  boundary?: (text: string) => number;
  /** Written in its own key order (pythonDumps with `sort: false`). */
  unsorted?: boolean;
}

/** `text` with its one occurrence of `from` replaced (a marker the case put there). */
export function replaceOnce(text: string, from: string, to: string): string {
  const at = indexOnce(text, from);
  return text.slice(0, at) + to + text.slice(at + from.length);
}

/** Where `marker` is in `text`, which must hold it exactly once. */
export function indexOnce(text: string, marker: string): number {
  const at = text.indexOf(marker);
  if (at < 0 || text.indexOf(marker, at + 1) >= 0)
    throw new Error(`marker ${JSON.stringify(marker)} not once`);
  return at;
}

/** The base file's text, for the records' positions. */
let baseText: string | undefined;

/**
 * The file with every attack of `crafts` in it, each on a record of its own. Attacks with a
 * boundary come first, in order: each gets a step of its own (from the second step's end on),
 * landed on exactly by padding the note of the record before it (of the last record for the
 * list's end).
 */
function craft(crafts: readonly Craft[]): string {
  baseText ??= `${pythonDumps(baseLedger())}\n`;
  const width = indexOnce(baseText, '"n": 4,\n') - indexOnce(baseText, '"n": 3,\n');
  const first = indexOnce(baseText, '"n": 1,\n');
  // The attacked records: a boundary's a little before the step it is to land on.
  const ats = crafts.map((c, j) =>
    c.boundary !== undefined ? Math.floor(((j + 2) * STEP - first) / width) - 1 : 20 + 10 * j,
  );
  const ledger = baseLedger();
  crafts.forEach((c, j) => c.edit?.(ledger, ats[j] as number));
  let text = `${pythonDumps(ledger, { sort: !crafts.some((c) => c.unsorted) })}\n`;
  for (const c of crafts) if (c.text) text = c.text(text);
  const targets: number[] = [];
  let previous = STEP;
  crafts.forEach((c, j) => {
    if (c.boundary === undefined) return;
    const where = c.boundary(text);
    const target = Math.max(Math.ceil(where / STEP), previous / STEP + 1) * STEP;
    // record ats[j] - 1 (numbered ats[j]): after the previous attack, before this one
    const padded = c.edit === undefined ? COUNT : (ats[j] as number);
    const note = indexOnce(text, `"note": "note ${padded} `);
    const close = text.indexOf('"', note + 9);
    text = `${text.slice(0, close)}${'q'.repeat(target - where)}${text.slice(close)}`;
    targets.push(target);
    previous = target;
  });
  const landed = crafts.flatMap((c) => (c.boundary === undefined ? [] : [c.boundary(text)]));
  if (JSON.stringify(landed) !== JSON.stringify(targets))
    throw new Error('a boundary did not land on its step');
  return text;
}

/** Sets `key` of record `at` (sorted last in the record when it begins with `zz`). */
const put =
  (key: string, value: unknown) =>
  (ledger: AnyLedger, at: number): void => {
    (ledger.iterations[at] as unknown as AnyRecord)[key] = value;
  };

/** `key` set to a marker value, then replaced by `raw` text (what pythonDumps would not write). */
const rawValue = (key: string, raw: string): Craft => ({
  edit: put(key, `RAW-${key}`),
  text: (t) => replaceOnce(t, `"RAW-${key}"`, raw),
});

/** The position of `marker` (once in the file) plus `offset`. */
const after =
  (marker: string, offset: number) =>
  (text: string): number =>
    indexOnce(text, marker) + offset;

/** Where the records' list closes, `\n  ]`, in a file whose top-level list is the last list. */
const listClose = (text: string): number => text.lastIndexOf('\n  ]');

/** `offset` bytes into the break after the record holding `key`: `\n    },\n    {`. */
const afterRecordOf =
  (key: string, offset: number) =>
  (text: string): number =>
    text.indexOf('\n    },\n    {', indexOnce(text, `"${key}"`)) + offset;

const cases: FirstTouchCase[] = [];

function add(name: string, valid: boolean, crafts: Craft | readonly Craft[], sliced?: boolean): void {
  const text = craft(Array.isArray(crafts) ? crafts : [crafts as Craft]);
  cases.push({ name, bytes: Buffer.from(text, 'utf8'), valid, sliced });
}

/** Every case, built on first use (~60 files of ~2 MB). */
export function firstTouchCases(): FirstTouchCase[] {
  if (cases.length > 0) return cases;
  const read = (name: string, crafts: Craft | readonly Craft[], sliced?: boolean): void =>
    add(name, true, crafts, sliced);
  const refused = (name: string, crafts: Craft | readonly Craft[]): void => add(name, false, crafts);

  // ---- files the full read accepts ----
  read('as the original engine wrote it', {}, true);
  // Steps ending at every kind of place, a few per file (each its own step).
  read(
    'steps ending in a run of blanks, in a string, right after the backslash of \\" and of \\u005d, between the two of \\\\',
    [
      { edit: put('zz_blank', 1), boundary: after('"zz_blank"', -3) },
      { edit: put('zz_str', 'abcdefgh'), boundary: after('abcdefgh', 4) },
      { edit: put('zz_quote', 'ab"cd'), boundary: after('ab\\"cd', 3) },
      { ...rawValue('zz_u', '"\\u005d\\u007d\\u002c\\u0022\\u005c"'), boundary: after('\\u005d\\u007d', 1) },
      { edit: put('zz_slash', 'ab\\'), boundary: after('"ab\\\\"', 4) },
    ],
    true,
  );
  read(
    'steps ending inside a number, before its fraction, inside a key, between a key and its colon, inside true, inside null',
    [
      { edit: put('zz_num', 123456789), boundary: after('123456789', 4) },
      { edit: put('zz_frac', 1234.5678), boundary: after('1234.5678', 4) },
      { edit: put('zz_key', 1), boundary: after('"zz_key"', 3) },
      { edit: put('zz_colon', 1), boundary: after('"zz_colon"', 10) },
      { edit: put('zz_flag', true), boundary: after('"zz_flag": true', 13) },
    ],
    true,
  );
  read(
    'steps ending inside null, after a record’s }, after the comma between records, after a record’s {, and before the list’s ]',
    [
      { edit: put('zz_nul', null), boundary: after('"zz_nul": null', 12) },
      { edit: put('zz_end', 1), boundary: afterRecordOf('zz_end', 6) },
      { edit: put('zz_comma', 1), boundary: afterRecordOf('zz_comma', 7) },
      { edit: put('zz_open', 1), boundary: afterRecordOf('zz_open', 13) },
      { boundary: (t) => listClose(t) + 3 },
    ],
    true,
  );
  read('a step ending right after the last record’s }', { boundary: (t) => listClose(t) }, true);
  read('a step ending right after the list’s ]', { boundary: (t) => listClose(t) + 4 }, true);
  read(
    'values: a 600 KB record of escapes, strings of ] } , \\" \\\\ ": \\n and \\u escapes, empty and spaced containers, nesting 200 and 4,000 deep, numbers spelled oddly (the record number too), keys named iterations, keys after the list, schema_version 1',
    [
      { edit: put('zz_big', '\\"]},: \n\t{['.repeat(60_000)) },
      {
        edit: put('zz_str', '] } , " \\ ": \n ]\n    }\n  ]'),
      },
      rawValue('zz_raw', '"\\u005d\\/\\u007d\\u002C\\\\\\"\\u0022: "'),
      { edit: put('zz_e', { a: {}, b: [], c: [{}, []] }) },
      rawValue('zz_sp', '[ [ ], { }, [\n        ], {\r\n\t} ]'),
      { edit: put('zz_deep', nested(200)) },
      rawValue('zz_lists', `${'['.repeat(4000)}${']'.repeat(4000)}`),
      {
        ...rawValue('zz_nums', '[1.0, 1E+2, -0, 5e-324, 1e400, -1.5e-7]'),
        text: (t) => {
          const n = indexOnce(t, '"RAW-zz_nums"');
          const record = t.lastIndexOf('"n": ', n);
          const line = t.indexOf(',\n', record);
          // this record's number written 51.0
          const withN = `${t.slice(0, line)}.0${t.slice(line)}`;
          return replaceOnce(withN, '"RAW-zz_nums"', '[1.0, 1E+2, -0, 5e-324, 1e400, -1.5e-7]');
        },
      },
      {
        edit: (l, at) => {
          put('zz_nest', { iterations: [{ n: 1, outcome: 'x' }] })(l, at);
          (l.contract as unknown as AnyRecord).iterations = [{ a: 1 }];
          (l as AnyRecord).epochs = [
            { n: 1, contract: { iteration_limit: 5 }, iterations: [1, 2], final_outcome: null },
          ];
          l.completed_actions.push('"iterations": [\n    {\n');
          l.zz_after = { a: [1, { b: ']', iterations: [{ n: 1 }] }], c: {} };
          l.schema_version = 1;
        },
        // the contract's nested list made to begin as the records' list does
        text: (t) =>
          replaceOnce(t, '"iterations": [\n      {\n        "a"', '"iterations": [\n    {\n        "a"'),
      },
    ],
    true,
  );
  read(
    'tabs and CRLF line ends inside the records',
    {
      text: (t) => {
        const from = t.indexOf('[\n    {\n', t.indexOf('"iterations"')) + 8;
        const to = listClose(t);
        const records = t
          .slice(from, to)
          .replace(/\n( *)/g, (_, s: string) => `\r\n${'\t'.repeat(s.length / 2)}`);
        return t.slice(0, from) + records + t.slice(to);
      },
    },
    true,
  );
  read(
    'the list’s ] followed directly by }',
    {
      unsorted: true,
      edit: (l) => {
        const { iterations, ...rest } = l;
        for (const key of Object.keys(l)) delete l[key];
        Object.assign(l, rest, { iterations });
      },
      text: (t) => replaceOnce(t, '\n  ]\n}\n', ']}'),
    },
    true,
  );
  read(
    'a header longer than a step before the list',
    {
      edit: (l) =>
        l.completed_actions.push(...Array.from({ length: 3000 }, (_, i) => `long-${i}`.padEnd(100, '.'))),
    },
    true,
  );
  read(
    'the list’s opening split by the first step',
    {
      edit: (l) => l.completed_actions.push('PAD'),
      text: (t) => {
        const open = t.indexOf('[\n    {\n', t.indexOf('"iterations"'));
        // the list's `[` moved to 3 bytes before the first step's end
        return replaceOnce(t, '"PAD"', `"${'a'.repeat(STEP - open)}"`);
      },
    },
    true,
  );
  read(
    '30,000 short records (many end in every step)',
    {
      edit: (l) => {
        (l as AnyRecord).iterations = Array.from({ length: 30_000 }, (_, i) => ({
          n: i + 1,
          outcome: 'continue',
        }));
        l.completed_actions = [];
      },
    },
    true,
  );
  // What the pass declines to prove: the full read decides, and reads it.
  read(
    'objects nested 4,200 levels deep in a record (deeper than the pass follows)',
    rawValue('zz_deep', `${'{"a":'.repeat(4200)}1${'}'.repeat(4200)}`),
  );
  read(
    'keys with escapes in a record',
    rawValue('zz_keys', '{"a\\"b": 1, "\\u00e9": 2, "c\\\\d": 3, "\\u005d": 4}'),
  );
  read('an object of 70 keys in a record', {
    edit: put('zz_many', Object.fromEntries(Array.from({ length: 70 }, (_, i) => [`k${i}`, i]))),
  });
  // The records' list is found by its key's bytes: a key spelled otherwise is not it.
  read('the iterations key spelled with an escape', {
    text: (t) => replaceOnce(t, '"iterations": [', '"iter\\u0061tions": ['),
  });
  // A seal that does not match is no seal: the full read checks every record and reads it.
  read('a seal in the header after the list', {
    text: (t) => replaceOnce(t, '"status": "open"', '"status": "open",\n  "records_sha256": "x"'),
  });
  read('CRLF line ends everywhere', { text: (t) => t.split('\n').join('\r\n') });
  // ASCII is what the original engine writes: anything else goes to the full read.
  read(
    'raw UTF-8 in a record’s string',
    rawValue('zz_str', '"pppppppppppppppp\u00e9 \u4e2d pppppppp"'),
    false,
  );
  read(
    'raw UTF-8 split by a step',
    // the step begins at é's second byte (its text index is one short of its byte index)
    { ...rawValue('zz_str', '"ab\u00e9cd"'), boundary: (t) => indexOnce(t, 'ab\u00e9cd') + 3 },
    false,
  );
  read('raw UTF-8 in a record’s key', rawValue('zz_key', '{"\u00e9": 1}'), false);
  read(
    'raw UTF-8 in the header after the list',
    { edit: (l) => void (l.zz_after = 'NONASCII'), text: (t) => replaceOnce(t, 'NONASCII', '\u00e9') },
    false,
  );

  // ---- files the full read refuses ----
  const mark = (raw: string): Craft => rawValue('zz_mark', raw);
  refused('a key twice in a record', mark('1,\n      "zz_mark": 2'));
  refused('a key twice in an object nested in a record', mark('{"a": 1, "b": 2, "a": 1}'));
  refused('a key twice in a record, once spelled with an escape', mark('1,\n      "zz_m\\u0061rk": 1'));
  refused('a key twice in a record of 600 KB, the two steps apart', {
    edit: (l, at) => {
      put('zz_big', 'b'.repeat(600_000))(l, at);
      put('zz_mark', 'RAW-zz_mark')(l, at);
    },
    text: (t) => replaceOnce(t, '"RAW-zz_mark"', '1,\n      "actions": []'),
  });
  const header = (from: string, to: string): Craft => ({ text: (t) => replaceOnce(t, from, to) });
  const beforeList = '"epoch": 2,\n  "epochs"';
  const afterList = '"status": "open"';
  refused('a key twice in the header before the list', header(beforeList, `"epoch": 2,\n  ${beforeList}`));
  refused('a key twice in the header after the list', header(afterList, `${afterList},\n  "status": "open"`));
  refused('iterations again after the list', header(afterList, `${afterList},\n  "iterations": []`));
  refused(
    'iterations again after the list, spelled with an escape',
    header(afterList, `${afterList},\n  "iter\\u0061tions": []`),
  );
  refused(
    'iterations spelled with an escape before the list',
    header(beforeList, `"iter\\u0061tions": [],\n  ${beforeList}`),
  );
  refused(
    'a key of the header before the list again after it',
    header(afterList, `${afterList},\n  "epochs": []`),
  );
  // A blank dropped between two words would join them into one (`1 2` read as `12`).
  for (const raw of ['1 2', '- 1', '1. 5', 'tr ue', '1\t2'])
    refused(`a blank inside a word in a record (${raw})`, mark(raw));
  refused('a blank inside a number, a step beginning at the blank', {
    ...mark('11 22'),
    boundary: after('11 22', 2),
  });
  refused('a blank inside true, a step beginning after the blank', {
    ...mark('tr ue'),
    boundary: after('tr ue', 3),
  });
  const recordBreak = '\n    },\n    {';
  /** The break after the record holding zz_mark replaced by `to`. */
  const breakAfterMark = (to: string): Craft => ({
    edit: put('zz_mark', 1),
    text: (t) => {
      const at = t.indexOf(recordBreak, indexOnce(t, '"zz_mark"'));
      return t.slice(0, at) + to + t.slice(at + recordBreak.length);
    },
  });
  refused('a trailing comma after the last record', header('\n    }\n  ]', '\n    },\n  ]'));
  refused('two commas between records', breakAfterMark('\n    },,\n    {'));
  refused('a number as a record', breakAfterMark('\n    },\n    5,\n    {'));
  refused('a list as a record', breakAfterMark('\n    },\n    [1, 2],\n    {'));
  refused(
    'a record inside a list in the list',
    breakAfterMark('\n    },\n    [{"n": 1, "outcome": "continue"}],\n    {'),
  );
  refused('the list closed by }', header('\n    }\n  ]', '\n    }\n  }'));
  refused('a record of an outcome no record has, on a step boundary', {
    edit: put('outcome', 'bogus'),
    boundary: after('"bogus"', 3),
  });
  refused('a record numbered out of order', header('"n": 201,\n', '"n": 203,\n'));
  refused('a raw tab inside a record’s string', mark('"a\tb"'));
  refused('NaN, as Python writes a float that is not a number', mark('NaN'));
  refused('a form feed between tokens in a record', mark('\f1'));
  for (const [what, from, to] of [
    ['the header after the list names another session', '"session": "s1"', '"session": "s2"'],
    ['a status the header cannot have', afterList, '"status": "bogus"'],
    ['a missing comma in the header after the list', '"resumed": 0,', '"resumed": 0'],
    ['a blank inside a number in the header after the list', '"resumed": 0,', '"resumed": 1 0,'],
    ['schema_version 2 after the list', afterList, `${afterList},\n  "zz": 1,\n  "schema_version": 2`],
    ['text after the last }', `${afterList}\n}\n`, `${afterList}\n}\n}\n`],
    ['no closing } at the end', `${afterList}\n}\n`, `${afterList}\n`],
  ] as const) {
    refused(`records fine, ${what}`, header(from, to));
  }
  refused('a byte that is not UTF-8 in a record’s string', mark('"NOT-UTF8"'));
  const notUtf8 = cases[cases.length - 1] as FirstTouchCase;
  notUtf8.bytes[notUtf8.bytes.indexOf('NOT-UTF8') + 3] = 0xff;
  for (const c of cases)
    if (c.bytes.length < KEYS_PROOF_FROM_BYTES)
      throw new Error(`${c.name}: ${c.bytes.length} bytes, too short for the pass`);
  return cases;
}

/** Lists and objects nested `depth` levels deep, as Python lays them out. */
function nested(depth: number): unknown {
  let value: unknown = { bottom: [1, 'x'] };
  for (let i = 0; i < depth; i += 1) value = i % 2 === 0 ? [value] : { d: value };
  return value;
}
