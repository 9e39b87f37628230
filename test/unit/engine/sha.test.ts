// The engine's SHA-256 hashes small inputs in JavaScript, mid-sized ones in WebAssembly and large
// ones with node:crypto; each must give node:crypto's digest for every input, split into
// updates however the caller likes.
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import fc from 'fast-check';
import { MID_INPUT, SMALL_INPUT, sha256, sha256Hex16 } from '../../../src/engine/sha';
import { sha256HexInWasm } from '../../../src/engine/sha256-mid';
import { sha256HexOf } from '../../../src/engine/sha256-small';

const nodeSha = (bytes: Buffer): string => createHash('sha256').update(bytes).digest('hex');

describe('engine: sha256', () => {
  it('gives the FIPS 180-4 test vectors', () => {
    assert.equal(
      sha256HexOf(Buffer.from('')),
      'e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855',
    );
    assert.equal(
      sha256HexOf(Buffer.from('abc')),
      'ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad',
    );
    assert.equal(
      sha256HexOf(Buffer.from('abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq')),
      '248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1',
    );
  });

  it('agrees with node:crypto at every length around the block and padding edges', () => {
    for (let n = 0; n <= 200; n += 1) {
      const bytes = Buffer.alloc(n, n % 251);
      assert.equal(sha256HexOf(bytes), nodeSha(bytes), `length ${n}`);
    }
  });

  it('the WebAssembly SHA-256 agrees with node:crypto at every length around the block and padding edges', () => {
    assert.equal(sha256HexInWasm([], 0), nodeSha(Buffer.alloc(0)));
    for (let n = 0; n <= 300; n += 1) {
      const bytes = Buffer.from(Array.from({ length: n }, (_, i) => (i * 31 + n) % 256));
      assert.equal(sha256HexInWasm([bytes], n), nodeSha(bytes), `length ${n}`);
      // In two pieces, and again (the WebAssembly module's state and padding area are reused).
      assert.equal(sha256HexInWasm([bytes.subarray(0, n >> 1), bytes.subarray(n >> 1)], n), nodeSha(bytes));
      // A string piece stands for its latin1 bytes.
      const text = bytes.toString('latin1');
      assert.equal(sha256HexInWasm([text.slice(0, n >> 2), bytes.subarray(n >> 2)], n), nodeSha(bytes));
    }
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 70_000 }), (bytes) => {
        assert.equal(sha256HexInWasm([bytes], bytes.length), nodeSha(Buffer.from(bytes)));
      }),
      { numRuns: 100 },
    );
  });

  it('agrees with node:crypto for any text split into any updates, either side of both hand-overs', () => {
    const text = fc.oneof(
      fc.string({ unit: 'binary', maxLength: 300 }),
      fc.constant('x'.repeat(SMALL_INPUT - 1)),
      fc.constant('y'.repeat(MID_INPUT - 100)),
      fc.constant('z'.repeat(MID_INPUT + 1)),
    );
    // Each update is text in either encoding or bytes, in any order (a brief's id mixes them).
    const update = fc.tuple(text, fc.constantFrom('utf8' as const, 'latin1' as const, 'bytes' as const));
    fc.assert(
      fc.property(fc.array(update, { maxLength: 6 }), (updates) => {
        const hash = sha256();
        const expected: Buffer[] = [];
        for (const [part, kind] of updates) {
          if (kind === 'bytes') {
            const bytes = Buffer.from(part, 'utf8');
            hash.updateBytes(bytes);
            expected.push(Buffer.from(bytes));
            bytes.fill(0); // the hash copied or consumed them: the caller may reuse its buffer
          } else {
            hash.update(part, kind);
            expected.push(Buffer.from(part, kind));
          }
        }
        assert.equal(hash.digest('hex'), nodeSha(Buffer.concat(expected)));
      }),
      { numRuns: 300 },
    );
  });

  it('sha256Hex16 is the first 16 hex digits over UTF-8', () => {
    assert.equal(sha256Hex16('héllo ☃ 😀'), nodeSha(Buffer.from('héllo ☃ 😀', 'utf8')).slice(0, 16));
  });
});
