// A diff kept as bytes (Utf8Diff) must give exactly what its decoded string gives: the same
// paths, the same brief id, the same --json bytes, the same refusals. These properties pin the
// byte path to the string path on random diffs, chunk boundaries included.
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { utf8TextBytes } from '../../../src/app/read-input';
import { jsonText } from '../../../src/cli/print-json';
import { brief, briefId, diffPaths, Utf8Diff } from '../../../src/engine/brief';
import type { BriefInputs, DiffInput } from '../../../src/engine/brief';
import { PY_WHITESPACE, pyStrip, pyUniversalNewlines } from '../../../src/engine/python-text';
import type { Contract, Ledger, RubricDimension } from '../../../src/engine/types';

const RUBRIC: RubricDimension[] = [
  {
    dimension: 'coverage',
    evidence_command: 'npm test',
    baseline: 70,
    target: 90,
    weight: 100,
    failure_threshold: 60,
    direction: 'higher-is-better',
    hard_gate: true,
  },
];

function ledger(): Ledger {
  const contract = {
    purpose: 'p',
    owner: 'o',
    starting_state: 's',
    inputs: [],
    expected_outputs: [],
    success_criteria: [],
    failure_criteria: [],
    dependencies: [],
    iteration_limit: 3,
    timeout_behaviour: 't',
    escalation_path: 'e',
    quality_rubric: RUBRIC,
  } as Contract;
  return {
    session: 's1',
    contract,
    status: 'open',
    final_outcome: null,
    iterations: [],
    completed_actions: [],
    resumed: 0,
    pending_brief: null,
  };
}

const decoder = new TextDecoder('utf-8', { fatal: true });
/** What readTextFile gives for these bytes (the string path's input), or null when it refuses. */
function decodedAsToday(bytes: Buffer): string | null {
  try {
    return decoder.decode(bytes);
  } catch {
    return null;
  }
}

/** The line breaks str.splitlines() honours besides \n and \r. */
const RARE_LINE_BREAKS = ['\v', '\f', '\x1c', '\x1d', '\x1e', '\x85', '\u2028', '\u2029'];

/** Pieces a diff is made of: path lines, hunk lines, and every character class that matters. */
const piece = fc.oneof(
  fc.constantFrom(
    'diff --git a/src/a.ts b/src/a.ts',
    'diff --git a/x y b/x y',
    'diff --git /dev/null b/new é.ts',
    '--- a/src/a.ts\t2024-01-01',
    '+++ b/src/a.ts',
    '--- /dev/null',
    '+++ b/docs/\u00e9t\u00e9.md',
    '+++ b/\u4e2d\u6587/\ud83d\ude00.txt',
    '--- \u00a0a/nbsp.ts\u3000',
    '@@ -1,2 +1,2 @@',
    '-- removed line',
    '++ added line',
    ' context "quoted" \\ back',
  ),
  fc.constantFrom('\n', '\n', '\n', '\r\n', '\r', '\t', ' ', '"', '\\', '\x7f', '\x00', '\x1b', '\x1f'),
  fc.constantFrom('\u00e9', '\u20ac', '\u4e2d', '\ud83d\ude00', '\u{10ffff}', '\u00a0', '\u3000', '\ufeff'),
  fc.constantFrom(...RARE_LINE_BREAKS),
  fc.string({ maxLength: 6 }),
);

/** Mostly diff-shaped text, with or without the rarities the byte path must refuse or carry. */
const diffText = fc.array(piece, { maxLength: 60 }).map((parts) => parts.join(''));

const withBom = (text: string, bom: boolean): Buffer => Buffer.from((bom ? '\ufeff' : '') + text, 'utf8');

describe('brief: a diff kept as bytes reads exactly as its string', () => {
  it('pyStrip’s shortcut: no printable ASCII character is Python whitespace', () => {
    const ws = new RegExp(`[${PY_WHITESPACE}]`);
    for (let code = 0x21; code < 0x7f; code += 1) assert.equal(ws.test(String.fromCharCode(code)), false);
    fc.assert(
      fc.property(fc.string(), (s) => {
        const reference = s
          .replace(new RegExp(`^[${PY_WHITESPACE}]+`), '')
          .replace(new RegExp(`[${PY_WHITESPACE}]+$`), '');
        assert.equal(pyStrip(s), reference);
      }),
    );
  });

  it('utf8TextBytes accepts what the fatal decoder accepts and drops the one mark it drops', () => {
    const bytes = fc.oneof(
      fc.uint8Array({ maxLength: 40 }).map((b) => Buffer.from(b)),
      fc
        .tuple(fc.constantFrom('', '\ufeff', '\ufeff\ufeff'), fc.string({ unit: 'binary', maxLength: 20 }))
        .map(([bom, s]) => Buffer.from(bom + s, 'utf8')),
      fc.constantFrom(
        Buffer.from([0xed, 0xa0, 0x80]), // an encoded surrogate
        Buffer.from([0xc0, 0xaf]), // overlong
        Buffer.from([0xf4, 0x90, 0x80, 0x80]), // above U+10FFFF
        Buffer.from([0xef, 0xbb]), // half a mark
        Buffer.from([0x61, 0xe2, 0x82]), // cut short
      ),
    );
    fc.assert(
      fc.property(bytes, (b) => {
        const text = decodedAsToday(b);
        const kept = utf8TextBytes(b);
        if (text === null) assert.equal(kept, null);
        else assert.equal(kept === null ? null : Buffer.from(kept).toString('utf8'), text);
      }),
      { numRuns: 600 },
    );
  });

  it('refuses a blank diff as the string path does, whatever its size and chunks', () => {
    const rest = { verification: { path: 'v', text: 'ok\n' } };
    for (const text of [
      '',
      ' \n',
      '\t\r\n\x1f\v',
      '\u00a0\u3000\u2028\n',
      ' '.repeat(70_000) + '\n',
      '\ufeff',
      '\ufeffx',
      ' '.repeat(70_000) + 'x',
    ]) {
      const bytes = Buffer.from(text, 'utf8');
      const fromText = brief(ledger(), {
        diff: { path: 'd', text: decodedAsToday(bytes) as string },
        ...rest,
      });
      const fromBytes = brief(ledger(), {
        diff: { path: 'd', utf8: utf8TextBytes(bytes) as Buffer } as DiffInput,
        ...rest,
      });
      assert.equal(jsonText(fromBytes), jsonText(fromText), JSON.stringify(text.slice(0, 20)));
    }
  });

  it('gives the same chunks, paths, id and --json text at any chunk size and overflow budget, in any order of reading', () => {
    fc.assert(
      fc.property(
        diffText,
        fc.integer({ min: 1, max: 40 }),
        fc.boolean(),
        fc.integer({ min: 0, max: 3 }),
        fc.option(fc.integer({ min: 0, max: 60 })),
        (text, chunkBytes, scoped, escapedFirst, budget) => {
          const expected = pyUniversalNewlines(text);
          const parts = { verification: 'ok\n', rubric: RUBRIC, scope: scoped ? ['src/a.ts'] : null };
          const expectedId = briefId({ diff: expected, ...parts });
          const expectedJson = jsonText({ diff: expected, list: [1] });
          const expectedPaths = diffPaths(expected);
          // A small overflow budget stops storing escapes part of the way (as a diff of control
          // characters does): the rest is escaped again when printed.
          const make = (): Utf8Diff =>
            new Utf8Diff(Buffer.from(text, 'utf8'), { chunkBytes, overflowBudget: budget ?? undefined });

          // Read as the brief reads it: blank check and paths, then the id, then the printing.
          const diff = make();
          assert.equal([...diff.chunks()].join(''), expected);
          assert.deepEqual(diffPaths(diff), expectedPaths);
          assert.equal(briefId({ diff, ...parts }), expectedId);
          assert.equal(jsonText({ diff, list: [1] }), expectedJson);
          // Escaped in place by now: the text, paths and id read back from the escapes.
          assert.equal(diff.text(), expected);
          assert.equal(JSON.stringify(diff), JSON.stringify(expected));
          assert.deepEqual(diffPaths(diff), expectedPaths);
          assert.equal(briefId({ diff, ...parts }), expectedId);

          // Printed first, or escaped only part of the way (a reader that stopped early).
          const other = make();
          const partial = other.jsonChunks()[Symbol.iterator]();
          for (let i = 0; i < escapedFirst; i += 1) partial.next();
          assert.equal([...other.chunks()].join(''), expected);
          assert.equal(jsonText({ diff: other, list: [1] }), expectedJson);
          assert.equal(briefId({ diff: other, ...parts }), expectedId);
          assert.deepEqual(diffPaths(other), expectedPaths);
          assert.equal(other.text(), expected);
        },
      ),
      { numRuns: 500 },
    );
  });

  it('cuts chunks only after a whole line, never inside a character or a \\r\\n', () => {
    const text = 'ab\r\ncd\u00e9\u{1f600}\ref\n\n\r\r\ng\u2028\u4e2dh\x85i';
    for (let size = 1; size <= text.length + 2; size += 1) {
      const chunks = [...new Utf8Diff(Buffer.from(text, 'utf8'), { chunkBytes: size }).chunks()];
      assert.equal(chunks.join(''), pyUniversalNewlines(text));
      for (const chunk of chunks.slice(0, -1)) assert.ok(chunk.endsWith('\n'), JSON.stringify(chunks));
    }
  });

  it('brief() on bytes equals brief() on the decoded text: packet, --json bytes, ledger and refusals', () => {
    const scope = fc.constantFrom(undefined, 'src/a.ts\n', 'src/missing.ts\n', ' \n');
    fc.assert(
      fc.property(diffText, fc.boolean(), scope, (text, bom, scopeText) => {
        const bytes = withBom(text, bom);
        const decoded = decodedAsToday(bytes) as string;
        const utf8 = utf8TextBytes(bytes) as Buffer;
        const rest: Omit<BriefInputs, 'diff'> = {
          verification: { path: 'v', text: '3 passing\n' },
          changeScope: scopeText === undefined ? undefined : { path: 's', text: scopeText },
        };
        const fromText = brief(ledger(), { diff: { path: 'd', text: decoded }, ...rest });
        const fromBytes = brief(ledger(), { diff: { path: 'd', utf8 } as DiffInput, ...rest });
        assert.equal(jsonText(fromBytes), jsonText(fromText));
      }),
      { numRuns: 500 },
    );
  });

  it('brief() on a diff larger than one chunk equals brief() on its text', () => {
    const block = [
      'diff --git a/src/\u00e9.ts b/src/\u00e9.ts\r\n--- a/src/\u00e9.ts\r\n+++ b/src/\u00e9.ts\r\n',
      '@@ -1 +1 @@\n-old "x" \\ \x7f\x01\n+new \u4e2d\ud83d\ude00\r',
      '--- a/lone-cr.ts\r+++ b/lone-cr.ts\rdiff --git a/p q/r.ts b/p q/r.ts\n',
    ].join('');
    const oneHugeLine = 'diff --git a/huge.ts b/huge.ts ' + '\u00e9"x'.repeat(600_000); // one line over 1 MiB
    for (const text of [
      block.repeat(3000) + 'diff --git a/last.ts b/last.ts',
      block.repeat(3001) + 'diff --git a/last.ts b/last.ts',
      oneHugeLine,
      `${oneHugeLine}\n${block}`,
    ]) {
      const utf8 = Buffer.from(text, 'utf8');
      assert.ok(utf8.length > 3 * (1 << 16));
      const rest = { verification: { path: 'v', text: 'ok\n' } };
      const fromText = brief(ledger(), { diff: { path: 'd', text }, ...rest });
      const fromBytes = brief(ledger(), { diff: { path: 'd', utf8 } as DiffInput, ...rest });
      assert.equal(jsonText(fromBytes), jsonText(fromText));
    }
  });
});
