// The WebAssembly scanner (engine/brief/diff-scan.wat) implements the ASCII half of three string
// rules: JSON.stringify's escape of text read in Python's text mode, the lines that begin with
// given prefixes (prefixed-lines.ts; found in the same pass), and the paths those lines name
// (diff-paths.ts). These
// properties hold each routine to its rule on random ASCII, every byte value included, and the
// whole diff read through the scanner to the diff read without it.
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { jsonText } from '../../../src/cli/print-json';
import { briefId, diffPaths, Utf8Diff } from '../../../src/engine/brief';
import { DiffScanner, diffScanner } from '../../../src/engine/brief/diff-scan';
import { eachPrefixedLine } from '../../../src/engine/prefixed-lines';
import { pyUniversalNewlines } from '../../../src/engine/python-text';

const PATH_PREFIXES = ['diff --git ', '--- ', '+++ '];

/** Pieces of ASCII diff text: path lines of every shape, every special byte, and noise. */
const asciiPiece = fc.oneof(
  { weight: 4, arbitrary: fc.constantFrom('\n', '\r\n', '\r', '\n\n') },
  {
    weight: 4,
    arbitrary: fc.constantFrom(
      'diff --git a/src/a.ts b/src/a.ts',
      'diff --git a/x y b/x y',
      'diff --git /dev/null b/new.ts',
      'diff --git a/gone.ts /dev/null',
      'diff --git  \ta/pad.ts\x1f b/pad.ts \t',
      'diff --git a/ b/',
      'diff --git a/only-one',
      'diff --git ',
      '--- a/src/a.ts\t2024-01-01 10:00',
      '+++ b/src/a.ts',
      '--- /dev/null',
      '+++ /dev/null\t',
      '--- a/',
      '+++ b/\tx',
      '--- \x1f a/padded.ts \x1f',
      '+++  b//double.ts',
      '--- c/other-prefix.ts',
      '+++ a',
      '--- ',
      '-- removed',
      '++ added',
      '@@ -1,2 +1,2 @@',
      ' context "quoted" \\ back',
      '-diff --git a/not/at/start b/x',
    ),
  },
  {
    weight: 3,
    arbitrary: fc.constantFrom('\t', ' ', '"', '\\', '\x7f', '\x00', '\x08', '\x0c', '\x1b', '\x1f', '/'),
  },
  { weight: 2, arbitrary: fc.constantFrom('\v', '\f', '\x1c', '\x1d', '\x1e') },
  {
    weight: 3,
    arbitrary: fc.string({
      unit: fc.integer({ min: 0, max: 0x7f }).map((c) => String.fromCharCode(c)),
      maxLength: 40,
    }),
  },
);
const asciiText = fc.array(asciiPiece, { maxLength: 80 }).map((parts) => parts.join(''));

/** The string path's paths for a chunk of ASCII bytes: what the scanner must give. */
function expectedPaths(text: string): string[] {
  return diffPaths(pyUniversalNewlines(text));
}

function scanner(): DiffScanner {
  const made = diffScanner();
  assert.ok(made, 'WebAssembly with SIMD runs here');
  return made;
}

describe('diff-scan: the WebAssembly scanner equals the string rules on ASCII', () => {
  it('escapes as JSON.stringify escapes the text Python’s text mode reads', () => {
    fc.assert(
      fc.property(asciiText, (text) => {
        const escaped = scanner().escape(Buffer.from(text, 'latin1')).toString('latin1');
        assert.equal(escaped, JSON.stringify(pyUniversalNewlines(text)).slice(1, -1));
      }),
      { numRuns: 1500 },
    );
    // Every byte value, alone and inside a block of 16, at every offset of the block.
    for (let byte = 0; byte < 0x80; byte += 1) {
      for (const at of [0, 7, 15, 16, 31]) {
        const text = 'x'.repeat(at) + String.fromCharCode(byte) + 'y'.repeat(40);
        const escaped = scanner().escape(Buffer.from(text, 'latin1')).toString('latin1');
        assert.equal(
          escaped,
          JSON.stringify(pyUniversalNewlines(text)).slice(1, -1),
          `byte ${byte} at ${at}`,
        );
      }
    }
  });

  it('finds the lines that begin with the prefixes, as eachPrefixedLine finds them', () => {
    const prefixSets = fc.constantFrom(
      PATH_PREFIXES,
      ['-'],
      ['ab', 'a', '@@ '],
      ['x', 'y', 'z', '"'],
      ['\t-'],
    );
    fc.assert(
      fc.property(asciiText, prefixSets, (text, prefixes) => {
        const expected: string[] = [];
        eachPrefixedLine(pyUniversalNewlines(text), prefixes, (line) => expected.push(line));
        const bytes = Buffer.from(text, 'latin1');
        const spans = scanner().prefixedLines(bytes, prefixes);
        assert.ok(spans);
        const found: string[] = [];
        for (let i = 0; i < spans.length; i += 2)
          found.push(bytes.toString('latin1', spans[i], spans[i + 1]));
        assert.deepEqual(found, expected);
      }),
      { numRuns: 1500 },
    );
  });

  it('refuses prefixes the scanner cannot take (the caller searches itself)', () => {
    const bytes = Buffer.from('--- a\n');
    for (const prefixes of [[], ['a', 'b', 'c', 'd', 'e'], [''], ['x'.repeat(17)], ['é'], ['a\nb'], ['\r']]) {
      assert.equal(scanner().prefixedLines(bytes, prefixes), null, JSON.stringify(prefixes));
      assert.equal(scanner().beginPaths(prefixes), false, JSON.stringify(prefixes));
    }
  });

  it('names the paths diffPaths names, over any split into chunks', () => {
    fc.assert(
      fc.property(fc.array(asciiText, { minLength: 1, maxLength: 4 }), (chunks) => {
        // Each chunk must start a line, as Utf8Diff's chunks do.
        const parts = chunks.map((c, i) => (i < chunks.length - 1 ? `${c}\n` : c));
        const s = scanner();
        assert.ok(s.beginPaths(PATH_PREFIXES));
        // The escapes keep the paths on the way, and stay what they are.
        for (const part of parts) {
          const escaped = s.escape(Buffer.from(part, 'latin1')).toString('latin1');
          assert.equal(escaped, JSON.stringify(pyUniversalNewlines(part)).slice(1, -1));
        }
        assert.deepEqual(s.finishPaths(), expectedPaths(parts.join('')));
      }),
      { numRuns: 1500 },
    );
  });

  it('keeps 100,000 distinct paths (the memory grows), sorted and unique', () => {
    const lines: string[] = [];
    for (let i = 0; i < 100_000; i += 1) {
      const path = `dir${(i * 7919) % 100_000}/file-${i % 3 === 0 ? 'same' : i}.ts`;
      lines.push(`diff --git a/${path} b/${path}`, `--- a/${path}`, `+++ b/${path}`, '+x');
    }
    const text = lines.join('\n') + '\n';
    const s = scanner();
    assert.ok(s.beginPaths(PATH_PREFIXES));
    const bytes = Buffer.from(text, 'latin1');
    for (let start = 0; start < bytes.length;) {
      let end = Math.min(bytes.length, start + 200_000);
      if (end < bytes.length) end = bytes.lastIndexOf(0x0a, end - 1) + 1;
      s.escape(bytes.subarray(start, end));
      start = end;
    }
    assert.deepEqual(s.finishPaths(), expectedPaths(text));
    // Escapes after finishPaths keep nothing: a new set starts empty.
    s.escape(Buffer.from('--- a/late.ts\n'));
    assert.ok(s.beginPaths(PATH_PREFIXES));
    s.escape(Buffer.from('+++ b/only.ts\n'));
    assert.deepEqual(s.finishPaths(), ['only.ts']);
  });
});

describe('diff-scan: a diff read through the scanner equals the diff read without it', () => {
  it('gives the same chunks, paths, id and --json text, at any chunk size', () => {
    const mixed = fc.tuple(asciiText, fc.constantFrom('', 'é', '\u2028', '\x85', '\ud83d\ude00'), asciiText);
    fc.assert(
      fc.property(
        fc.oneof(
          asciiText,
          mixed.map(([a, b, c]) => a + b + c),
        ),
        fc.integer({ min: 1, max: 300 }),
        (text, chunkBytes) => {
          const parts = { verification: 'ok\n', rubric: [], scope: null };
          const make = (wasmFrom: number): Utf8Diff =>
            new Utf8Diff(Buffer.from(text, 'utf8'), { chunkBytes, wasmFrom });
          const plain = make(Infinity);
          const expected = {
            chunks: [...plain.chunks()].join(''),
            paths: diffPaths(plain),
            id: briefId({ diff: plain, ...parts }),
            json: jsonText({ diff: plain }),
          };
          const fast = make(0);
          assert.equal([...fast.chunks()].join(''), expected.chunks);
          assert.deepEqual(diffPaths(fast), expected.paths);
          assert.equal(briefId({ diff: fast, ...parts }), expected.id);
          assert.equal(jsonText({ diff: fast }), expected.json);
          // Escaped in place by now: read back from the stored escapes.
          assert.deepEqual(diffPaths(fast), expected.paths);
          assert.equal(fast.text(), pyUniversalNewlines(text));
        },
      ),
      { numRuns: 800 },
    );
  });
});
