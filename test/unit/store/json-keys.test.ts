// The WebAssembly proof that no key repeats (json-keys.ts): it must never call a text with a
// repeated key proved, it must prove the texts ledgers are made of, and a ledger read from its
// bytes (the path that uses it) must reach the same verdict as one read from its text alone.
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { keysPass, keysProvedUnique } from '../../../src/store/json-keys';
import { KEYS_PROOF_FROM_BYTES } from '../../../src/store/json-scan';
import { decodeLedgerBytes, parseLedgerText, serializeLedger } from '../../../src/store/ledger-file';
import { clearPlainPieces, usePlainPieces } from '../../../src/engine/plain-pieces';
import { sampleLedger } from './fixtures/sample-ledger';

const proved = (text: string): boolean => keysProvedUnique(Buffer.from(text, 'utf8'));

type Tree = unknown;
const render = (node: Tree, blank: string): string => {
  if (Array.isArray(node)) return `[${node.map((item) => render(item, blank)).join(`,${blank}`)}]`;
  if (node !== null && typeof node === 'object' && 'pairs' in node) {
    const pairs = (node as { pairs: [string, Tree][] }).pairs;
    return `{${blank}${pairs.map(([k, v]) => `${JSON.stringify(k)}${blank}:${blank}${render(v, blank)}`).join(`,${blank}`)}${blank}}`;
  }
  return JSON.stringify(node);
};
const repeats = (node: Tree): boolean => {
  if (Array.isArray(node)) return node.some(repeats);
  if (node !== null && typeof node === 'object' && 'pairs' in node) {
    const pairs = (node as { pairs: [string, Tree][] }).pairs;
    const keys = pairs.map(([k]) => k);
    return new Set(keys).size !== keys.length || pairs.some(([, v]) => repeats(v));
  }
  return false;
};
const key = fc.constantFrom('a', 'b', 'ab', 'ba', 'é', '"q"', 'd\\', ':', ' :', '{', ']');
const leaf = fc.oneof(
  fc.integer(),
  fc.constantFrom(null, true, ':', '":', '\\"', '{"a":1,"a":2}'),
  fc.string(),
);
const tree = fc.letrec((tie) => ({
  node: fc.oneof(
    { depthSize: 'small' },
    leaf,
    fc.array(tie('node'), { maxLength: 3 }),
    fc.array(fc.tuple(key, tie('node')), { maxLength: 5 }).map((pairs) => ({ pairs })),
  ),
})).node;
const root = fc.array(fc.tuple(key, tree), { maxLength: 6 }).map((pairs) => ({ pairs }));
const blank = fc.constantFrom('', ' ', '\n  ', '\t');

describe('store: the WebAssembly proof that no key repeats', () => {
  afterEach(() => clearPlainPieces());

  it('property: a text with a repeated key is never proved; one without, whose keys hold no escape, is', () => {
    fc.assert(
      fc.property(root, blank, (value, space) => {
        const text = render(value, space);
        const escaped = /\\/.test(JSON.stringify(collectKeys(value)));
        if (repeats(value)) assert.equal(proved(text), false, text);
        else if (!escaped) assert.equal(proved(text), true, text);
      }),
      { numRuns: 500 },
    );
  });

  it('property: fed partly to scan, the rest to compact, it proves what scan alone proves; refuses non-ASCII', () => {
    fc.assert(
      fc.property(root, blank, fc.double({ min: 0, max: 1, noNaN: true }), (value, space, where) => {
        const bytes = Buffer.from(render(value, space), 'utf8');
        // As the record-by-record reader feeds it: the header scanned, then the records compacted.
        const cut = Math.floor(where * bytes.length);
        const pass = keysPass();
        assert.ok(pass !== null);
        bytes.copy(pass.room(2 * bytes.length + 16), 0);
        const scanned = pass.scanAt(0, cut);
        const end = pass.compactAt(cut, bytes.length - cut, bytes.length, 2 * bytes.length + 16, 0);
        assert.equal(pass.proved(), scanned && end >= 0);
        if (bytes.subarray(cut).some((b) => b >= 0x80)) assert.equal(end, -1, 'a byte of 0x80 or more');
        else assert.equal(pass.proved(), keysProvedUnique(bytes), bytes.toString('utf8'));
      }),
      { numRuns: 500 },
    );
  });

  it('property: read from its bytes, a text gets the verdict it gets from its text alone', () => {
    fc.assert(
      fc.property(root, blank, (value, space) => {
        // Leading blanks make it long enough for the reader to take the WebAssembly pass.
        const text = ' '.repeat(KEYS_PROOF_FROM_BYTES) + render(value, space);
        const fromBytes = decodeLedgerBytes(Buffer.from(text, 'utf8'), '/x/s.json');
        const fromText = parseLedgerText(text, 's');
        assert.deepEqual(kindAndReason(fromBytes), kindAndReason(fromText), text);
      }),
      // Each text is padded past the proof's threshold (1.5 MiB): fewer runs keep this quick.
      { numRuns: 80 },
    );
  });

  it('proves the layouts ledgers come in: this store’s and the original engine’s indented one', () => {
    const ledger = sampleLedger('s1', 40);
    assert.equal(proved(serializeLedger(ledger)), true);
    assert.equal(proved(`${JSON.stringify(ledger, null, 2)}\n`), true);
  });

  it('leaves unproved what it cannot prove: an escaped key, over 64 keys, nesting past 4,096, a hash shared', () => {
    assert.equal(proved('{"a":1,"\\u0061":2}'), false); // the same key, spelled two ways
    assert.equal(proved('{"a\\"":1}'), false);
    const wide = Object.fromEntries(Array.from({ length: 65 }, (_, i) => [`k${i}`, i]));
    assert.equal(proved(JSON.stringify(wide)), false);
    assert.equal(proved(JSON.stringify(Object.fromEntries(Object.entries(wide).slice(0, 64)))), true);
    assert.equal(proved(`${'['.repeat(4097)}${']'.repeat(4097)}`), false);
    assert.equal(proved(`${'['.repeat(4096)}${']'.repeat(4096)}`), true);
    // Keys in different objects never meet; the same key in one object does, however far apart.
    assert.equal(proved('{"a":{"a":{"a":1}},"b":[{"a":1},{"a":2}]}'), true);
    assert.equal(proved(`{"a":1,"b":"${'x'.repeat(400_000)}","a":2}`), false);
    // Two different keys with one FNV-1a hash: not proved, and the exact check finds no repeat.
    assert.equal(proved('{"k32728":1,"k261234":2}'), false);
    assert.equal(proved('{"k32728":1,"x":{"k261234":2}}'), true);
    const shared = serializeLedger(sampleLedger('s1', 2)).replace(
      '{\n',
      '{\n  "k32728": 1,\n  "k261234": 2,\n',
    );
    assert.equal(decodeLedgerBytes(Buffer.from(shared), '/x/s1.json').kind, 'ok');
  });

  it('reads a text longer than one chunk of its memory, a repeated key split across chunks', () => {
    const records = Array.from({ length: 4000 }, (_, n) => `{"n":${n},"note":"${'y'.repeat(100)}"}`);
    const text = `{"iterations":[${records.join(',')}],"z":1}`;
    assert.ok(text.length > 400_000);
    assert.equal(proved(text), true);
    assert.equal(proved(text.replace('"z":1', '"z":1,"iterations":2')), false);
  });

  it('switched off for the benchmark, it proves nothing (the JavaScript check decides)', () => {
    usePlainPieces('keys-wasm');
    assert.equal(keysPass(), null);
    assert.equal(proved('{"a":1}'), false);
    const text = serializeLedger(sampleLedger('s1', 3));
    assert.equal(decodeLedgerBytes(Buffer.from(text), '/x/s1.json').kind, 'ok');
  });
});

function collectKeys(node: Tree): string[] {
  if (Array.isArray(node)) return node.flatMap(collectKeys);
  if (node !== null && typeof node === 'object' && 'pairs' in node) {
    const pairs = (node as { pairs: [string, Tree][] }).pairs;
    return pairs.flatMap(([k, v]) => [k, ...collectKeys(v)]);
  }
  return [];
}

function kindAndReason(read: ReturnType<typeof parseLedgerText>): string {
  return read.kind === 'corrupt' ? `corrupt: ${read.reason}` : read.kind;
}
