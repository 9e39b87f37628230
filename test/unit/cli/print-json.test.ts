// The chunked JSON printer must print exactly what `JSON.stringify(sortKeysDeep(payload), null, 2)`
// printed before it: every CLI test that reads --json output, and every agent, depends on it.
import assert from 'node:assert/strict';
import { join } from 'node:path';
import fc from 'fast-check';
import { jsonText, writeJson } from '../../../src/cli/print-json';
import { sortKeysDeep } from '../../../src/engine/ledger-view';
import { writeText } from '../helpers/cli';
import { loopWith } from './setup';

const reference = (payload: unknown): string => JSON.stringify(sortKeysDeep(payload), null, 2) + '\n';

describe('print-json: chunked output equal to JSON.stringify(sortKeysDeep(…), null, 2)', () => {
  it('matches on arbitrary JSON values, unicode and odd keys included', () => {
    fc.assert(
      fc.property(fc.jsonValue(), (value) => {
        assert.equal(jsonText(value), reference(value));
      }),
      { numRuns: 400 },
    );
  });

  it('matches on strings longer than one slice, with surrogate pairs and lone halves at every slice edge', () => {
    const slice = 1 << 16;
    const pair = '\ud83d\ude00';
    for (const at of [slice - 2, slice - 1, slice, slice + 1]) {
      const base = 'a'.repeat(at) + pair + 'b\n"\\\u0001\u007f\u2028é'.repeat(3) + 'z'.repeat(slice);
      for (const text of [
        base,
        base + '\ud83d',
        '\ude00' + base,
        'x'.repeat(at) + '\ud800' + 'y'.repeat(slice),
      ]) {
        const payload = { diff: text, brief_id: 'id', nested: [{ text }, 1.5, null] };
        assert.equal(jsonText(payload), reference(payload));
      }
    }
  });

  it('matches on lists of short values longer than one stringify slice, at any depth and length', () => {
    const item = fc.oneof(fc.string({ maxLength: 8 }), fc.double(), fc.boolean(), fc.constant(null));
    fc.assert(
      fc.property(
        fc.integer({ min: 1020, max: 3100 }),
        fc.array(item, { minLength: 1, maxLength: 5 }),
        fc.nat(3),
        (length, pattern, depth) => {
          const list = Array.from({ length }, (_, i) => pattern[i % pattern.length]);
          let payload: unknown = list;
          for (let d = 0; d < depth; d += 1) payload = { paths: payload, n: [d] };
          assert.equal(jsonText(payload), reference(payload));
        },
      ),
      { numRuns: 60 },
    );
  });

  it('matches on long lists of strings, plain (one join) or with one that needs an escape', () => {
    const plain = fc.stringMatching(/^[a-zA-Z0-9/._ é中-]{0,12}$/);
    const escaped = fc.constantFrom(
      'say "hi"',
      'back\\slash',
      'tab\t',
      'nul\u0000',
      'lone \ud800',
      '\ud83d\ude00',
    );
    fc.assert(
      fc.property(
        fc.integer({ min: 1020, max: 2600 }),
        fc.array(plain, { minLength: 1, maxLength: 7 }),
        fc.option(escaped),
        fc.nat(2),
        (length, pattern, odd, depth) => {
          const list = Array.from({ length }, (_, i) => pattern[i % pattern.length] as string);
          if (odd !== null) list[length >> 1] = odd;
          let payload: unknown = list;
          for (let d = 0; d < depth; d += 1) payload = { scope: { diff_paths: payload }, id: 'x' };
          assert.equal(jsonText(payload), reference(payload));
        },
      ),
      { numRuns: 80 },
    );
  });

  it('leaves out undefined, functions and symbols in objects and prints them as null in arrays', () => {
    const payload = {
      a: undefined,
      b: () => 1,
      c: Symbol('s'),
      d: [undefined, () => 1, 2],
      e: NaN,
      f: -0,
      g: {},
    };
    assert.equal(jsonText(payload), reference(payload));
  });

  it('prints a __proto__ key held as an own property, as sortKeysDeep keeps it', () => {
    const payload = JSON.parse('{"z": 1, "__proto__": {"b": 2, "a": [3]}}') as unknown;
    assert.equal(jsonText(payload), reference(payload));
  });

  it('writes a 5 MB payload in bounded chunks, never one buffer of the whole', () => {
    const payload = { diff: 'line of a diff\n'.repeat(350_000), verification: 'ok' };
    const sizes: number[] = [];
    const chunks: Buffer[] = [];
    writeJson(payload, (bytes) => {
      sizes.push(bytes.length);
      chunks.push(Buffer.from(bytes)); // the writer reuses its buffer
    });
    assert.equal(Buffer.concat(chunks).toString('utf8'), reference(payload));
    assert.ok(sizes.length > 40, `${sizes.length} chunks`);
    assert.ok(Math.max(...sizes) < 300_000, `largest chunk ${Math.max(...sizes)} bytes`);
  });
});

describe('print-json through the CLI: small payloads at once, large ones in chunks, the same text', () => {
  // printJson (src/cli/output.ts) prints a payload under 64 Ki characters with one
  // JSON.stringify, a larger one with the chunked writer. Both must give the reference text.
  for (const [label, lines] of [
    ['small (one write)', 10],
    ['large (chunks)', 20_000],
  ] as const) {
    it(`brief --json, ${label}`, () => {
      const loop = loopWith();
      const body = Array.from({ length: lines }, (_, i) => `+line ${i} "quoted" \\ tab\t é ${'\u2028'}`).join(
        '\n',
      );
      const diff = writeText(
        join(loop.root, 'change.diff'),
        `diff --git a/x b/x\n--- a/x\n+++ b/x\n${body}\n`,
      );
      const verification = writeText(join(loop.root, 'verify.txt'), 'ok\n');
      const r = loop.cli('brief', '--diff-file', diff, '--verification-file', verification, '--json');
      assert.equal(r.code, 0, r.stderr);
      const payload: unknown = JSON.parse(r.stdout);
      assert.equal(r.stdout.length > 64 * 1024, lines > 10);
      assert.equal(r.stdout, reference(payload));
      assert.equal(r.stdout, jsonText(payload));
    });
  }
});
