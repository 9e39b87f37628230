import assert from 'node:assert/strict';
import fc from 'fast-check';
import { errorSignature, normaliseError, stateHash } from '../../../src/engine/signature';

// Words that survive normalisation unchanged: lower-case letters only.
const word = fc.stringMatching(/^[a-z]{1,8}$/);
const words = fc.array(word, { minLength: 1, maxLength: 6 });
const digits = fc.stringMatching(/^[0-9]{1,6}$/);
// No x: hex is replaced before paths (as in the original), so `/0x7` would read as a hex value.
const pathSegment = fc.stringMatching(/^[A-WYZa-wyz0-9_.@+-]{1,8}$/);
const path = fc.array(pathSegment, { minLength: 1, maxLength: 4 }).map((segs) => '/' + segs.join('/'));
const quoted = fc.stringMatching(/^[^"\n]{0,12}$/).map((s) => `"${s}"`);
const hex = fc.stringMatching(/^[0-9a-f]{1,8}$/).map((s) => `0x${s}`);
const spaces = fc.stringMatching(/^[ \t\n]{1,3}$/);

describe('engine: error signatures', () => {
  it('known examples', () => {
    assert.equal(errorSignature(''), null);
    assert.equal(errorSignature(null), null);
    assert.equal(
      normaliseError('Error at /src/app.ts:12 "boom" 0xFF 2026-01-02T03:04:05.123Z'),
      'error at <path> : <n> <q> <hex> <ts>',
    );
    // Computed by CPython with the original's regular expressions and hashlib.sha256.
    assert.equal(
      errorSignature('Error at /src/app.ts:12 "boom" 0xFF 2026-01-02T03:04:05.123Z'),
      '9c63ef14f7e1b98f',
    );
  });

  it('property: numbers, paths, quoted spans, hex and case do not change the signature', () => {
    fc.assert(
      fc.property(
        words,
        digits,
        digits,
        path,
        path,
        quoted,
        quoted,
        hex,
        hex,
        (ws, d1, d2, p1, p2, q1, q2, h1, h2) => {
          const template = (d: string, p: string, q: string, h: string) =>
            `${ws.join(' ')} failed at ${p} line ${d} with ${q} code ${h}`;
          const a = template(d1, p1, q1, h1);
          const b = template(d2, p2, q2, h2).toUpperCase();
          assert.equal(errorSignature(a), errorSignature(b));
        },
      ),
    );
  });

  it('property: whitespace runs collapse and edges are trimmed', () => {
    fc.assert(
      fc.property(words, fc.array(spaces, { minLength: 7, maxLength: 7 }), (ws, gaps) => {
        const spaced = gaps[0] + ws.map((w, i) => w + (gaps[(i + 1) % gaps.length] ?? ' ')).join('');
        assert.equal(errorSignature(spaced), errorSignature(ws.join(' ')));
      }),
    );
  });

  it('property: different words give different signatures', () => {
    fc.assert(
      fc.property(words, words, (a, b) => {
        fc.pre(a.join(' ') !== b.join(' '));
        assert.notEqual(errorSignature(a.join(' ')), errorSignature(b.join(' ')));
      }),
    );
  });

  it('property: the signature is 16 hex characters or null, never anything else', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary', maxLength: 200 }), (text) => {
        const sig = errorSignature(text);
        assert.ok(sig === null || /^[0-9a-f]{16}$/.test(sig));
      }),
    );
  });
});

describe('engine: state hashes', () => {
  it('known examples', () => {
    assert.equal(stateHash(''), null);
    assert.equal(stateHash(undefined), null);
    assert.equal(stateHash('Coverage  67\n'), stateHash('coverage 67'));
    assert.notEqual(
      stateHash('coverage 67'),
      stateHash('coverage 68'),
      'numbers are state, unlike in error signatures',
    );
  });

  it('property: case and whitespace runs do not change the hash; the words do', () => {
    fc.assert(
      fc.property(words, fc.array(spaces, { minLength: 7, maxLength: 7 }), words, (ws, gaps, other) => {
        const spaced =
          gaps[0] + ws.map((w, i) => w.toUpperCase() + (gaps[(i + 1) % gaps.length] ?? ' ')).join('');
        assert.equal(stateHash(spaced), stateHash(ws.join(' ')));
        fc.pre(other.join(' ') !== ws.join(' '));
        assert.notEqual(stateHash(other.join(' ')), stateHash(ws.join(' ')));
      }),
    );
  });
});
