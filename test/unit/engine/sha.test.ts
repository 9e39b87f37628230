// The engine's SHA-256 hashes small inputs in JavaScript and large ones with node:crypto; both
// must give node:crypto's digest for every input, split into updates however the caller likes.
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import fc from 'fast-check';
import { SMALL_INPUT, sha256, sha256Hex16 } from '../../../src/engine/sha';
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

  it('agrees with node:crypto for any text split into any updates, either side of the hand-over', () => {
    const text = fc.oneof(
      fc.string({ unit: 'binary', maxLength: 300 }),
      fc.constant('x'.repeat(SMALL_INPUT - 1)),
    );
    fc.assert(
      fc.property(
        fc.array(text, { maxLength: 6 }),
        fc.constantFrom('utf8' as const, 'latin1' as const),
        (parts, enc) => {
          const hash = sha256();
          for (const part of parts) hash.update(part, enc);
          assert.equal(hash.digest('hex'), nodeSha(Buffer.concat(parts.map((p) => Buffer.from(p, enc)))));
        },
      ),
      { numRuns: 200 },
    );
  });

  it('sha256Hex16 is the first 16 hex digits over UTF-8', () => {
    assert.equal(sha256Hex16('héllo ☃ 😀'), nodeSha(Buffer.from('héllo ☃ 😀', 'utf8')).slice(0, 16));
  });
});
