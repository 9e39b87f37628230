// Red-team net for the brief's WebAssembly code (diff-scan.wat, sha256.wat): hostile diffs
// past the scanner's threshold (WASM_FROM_BYTES), read through a Utf8Diff with its real
// chunking, must give exactly the paths, id and --json text the string path computes, in every
// order of reading. Each case is built to sit on an edge the scanner or its driver handles:
// chunk and area limits, line breaks the scanner treats specially, memory growth, the overflow
// budget.
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { jsonText } from '../../../src/cli/print-json';
import { briefId, diffPaths, Utf8Diff } from '../../../src/engine/brief';
import { pyUniversalNewlines } from '../../../src/engine/python-text';
import { MID_INPUT, sha256, SMALL_INPUT } from '../../../src/engine/sha';
import { sha256HexInWasm } from '../../../src/engine/sha256-mid';

const KiB = 1024;
const CHUNK = 64 * KiB;
/** Past this, a Utf8Diff hands its ASCII chunks to the scanner. */
const WASM_FROM = 256 * KiB;

/** Repeats `unit` until the text is at least `size` bytes (ASCII units: bytes = length). */
function fill(unit: (i: number) => string, size: number): string {
  const parts: string[] = [];
  let length = 0;
  for (let i = 0; length < size; i += 1) {
    const piece = unit(i);
    parts.push(piece);
    length += Buffer.byteLength(piece, 'utf8');
  }
  return parts.join('');
}

/** Pads with a hunk line so that the next byte lands at `offset` (ASCII text). */
function padTo(text: string, offset: number): string {
  const missing = offset - text.length;
  assert.ok(missing >= 2, `room to pad to ${offset}`);
  return text + '+' + 'p'.repeat(missing - 2) + '\n';
}

const HOSTILE: Record<string, () => string> = {
  'CRLF everywhere': () =>
    fill(
      (i) => `diff --git a/crlf/${i}.ts b/crlf/${i}.ts\r\n--- a/crlf/${i}.ts\r\n+++ b/crlf/${i}.ts\r\n+x\r\n`,
      300 * KiB,
    ),
  'lone CR everywhere (no LF at all)': () =>
    fill(
      (i) => `diff --git a/cr/${i}.ts b/cr/${i}.ts\r--- a/cr/${i}.ts\r+++ b/cr/${i}.ts\r+x "q" \\\r`,
      300 * KiB,
    ),
  '\\v \\f \\x1c-\\x1e break before path lines': () =>
    fill(
      (i) =>
        `+a\v--- a/vt/${i}\f+++ b/ff/${i}\x1c--- a/fs/${i}\x1d+++ b/gs/${i}\x1e--- a/rs/${i}\n` +
        `diff --git a/x${i} b/x${i}\x1f\t\n`,
      300 * KiB,
    ),
  'path lines straddling every chunk edge': () => {
    // Chunks end after the last break within 64 KiB: a path line that ends just before, on or
    // just after that edge is the last line of one chunk or the first of the next.
    let text = '';
    let k = 1;
    for (const delta of [-3, -2, -1, 0, 1, 2, 3]) {
      for (const line of [
        `--- a/e${k}\n`,
        `+++ b/e${k}\r\n`,
        `diff --git a/g${k} b/g${k}\r`,
        `--- a/e${k}x\n`,
      ]) {
        text = padTo(text, k * CHUNK + delta - line.length);
        text += line;
        k += 1;
      }
    }
    return text + 'diff --git a/last b/last'; // the last line has no break
  },
  'lines of 70 KiB, 256 KiB - 1, 256 KiB, 256 KiB + 1 and 300 KiB': () =>
    [70 * KiB, WASM_FROM - 1, WASM_FROM, WASM_FROM + 1, 300 * KiB]
      .map((size, i) => `--- a/long-${i}\n+${'"\\\x01'.repeat(size).slice(0, size - 2)}\n+++ b/after-${i}\n`)
      .join(''),
  'a chunk of exactly 256 KiB (one line, with its break)': () =>
    `diff --git a/x b/x\n+${'z'.repeat(WASM_FROM - 2)}\n--- a/y\n`,
  'a chunk of exactly 256 KiB ending in \\r\\n': () =>
    `diff --git a/x b/x\n+${'\x7f'.repeat(WASM_FROM - 3)}\r\n+++ b/y\r\n`,
  'a 3 MiB line without a break, then nothing': () => `--- a/${'w'.repeat(3 * 1024 * KiB)}`,
  'path lines 100 KiB long (the arena holds whole chunks of path)': () =>
    fill((i) => `--- a/${String(i).repeat(25 * KiB)}\n+++ b/${String(i + 1).repeat(25 * KiB)}\n`, 1024 * KiB),
  'one-byte paths, as densely as possible (the arena’s worst case)': () =>
    fill(
      (i) =>
        `--- ${String.fromCharCode(0x21 + (i % 94))}\n+++ a/${String.fromCharCode(0x21 + ((i * 7) % 94))}\n`,
      600 * KiB,
    ),
  '60,000 distinct paths (the memory grows while paths are kept)': () =>
    fill((i) => `diff --git a/d/${(i * 7919) % 60000} b/d/${i}\n+++ b/e/${i}\n`, 1200 * KiB),
  'duplicate paths everywhere, interleaved': () =>
    fill((i) => `--- a/same\n+++ b/other\n--- a/same\n+++ b/${i % 3}\n`, 400 * KiB),
  'quotes, backslashes, control bytes and DEL in paths': () =>
    fill(
      (i) => `diff --git a/q"${i}\\\x01\x7f b/q"${i}\n--- a/\x1b[31m${i}\t\x08\n+++ b/\x00${i}\x7f \n`,
      300 * KiB,
    ),
  'diff --git with one, two and three sides; a/ b/ only; /dev/null': () =>
    fill(
      (i) =>
        `diff --git a/one-${i}\ndiff --git a/two-${i} b/two-${i}\ndiff --git a/t ${i} b/t\n` +
        `diff --git a/ b/\ndiff --git /dev/null b/new-${i}\n--- /dev/null\n+++ a/\n--- a\n+++ b/ \n` +
        `diff --git \x1f a/pad-${i} \t b/pad \x1f\n`,
      300 * KiB,
    ),
  'control bytes past the overflow budget (escapes 6× its size)': () =>
    'diff --git a/ctl b/ctl\n' +
    fill((i) => `+${'\x01\x02\x1b\x1f'.repeat(64)}\n--- a/c${i % 50}\n`, 1200 * KiB),
  'ASCII chunks around non-ASCII ones': () =>
    fill(
      (i) =>
        i % 900 === 450
          ? `+caf\u00e9 \u2028--- a/after-ls-${i}\n\x85+++ b/after-nel-${i}\n`
          : `diff --git a/m/${i} b/m/${i}\r\n+\t"x"\n`,
      900 * KiB,
    ),
  'whitespace-only lines and the tab/\\x1f/space around paths': () =>
    fill((i) => ` \t\x1f\n--- \t a/ws-${i} \x1f\t trailing\n+++  \x1f b/ws-${i}\x1f \n\n\r\n`, 300 * KiB),
};

const PARTS = { verification: 'ok\n', rubric: [{ id: 'r', weight: 1 }], scope: null };

/** What the string path computes for the text. */
function expected(text: string): { paths: string[]; id: string; json: string } {
  const decoded = pyUniversalNewlines(text);
  return {
    paths: diffPaths(decoded),
    id: briefId({ diff: decoded, ...PARTS }),
    json: jsonText({ diff: decoded, paths: diffPaths(decoded) }),
  };
}

function utf8Diff(text: string): Utf8Diff {
  const bytes = Buffer.from(text, 'utf8');
  return new Utf8Diff(bytes, { ascii: bytes.length === text.length });
}

describe('brief scanner, red team: hostile diffs past the threshold read exactly as the string path', () => {
  for (const [name, make] of Object.entries(HOSTILE)) {
    it(name, () => {
      const text = make();
      assert.ok(Buffer.byteLength(text) >= WASM_FROM, `${name}: past the scanner's threshold`);
      const want = expected(text);
      assert.ok(want.paths.length > 0, 'the case names paths');

      // As the brief reads it: paths (the scanner escapes and keeps paths), id, print, then again.
      const diff = utf8Diff(text);
      assert.ok(diff.scansWithWasm, 'the scanner runs');
      assert.deepEqual(diffPaths(diff), want.paths);
      assert.equal(briefId({ diff, ...PARTS }), want.id);
      assert.equal(jsonText({ diff, paths: diffPaths(diff) }), want.json);
      assert.deepEqual(diffPaths(diff), want.paths);
      assert.equal(briefId({ diff, ...PARTS }), want.id);
      assert.equal(diff.text(), pyUniversalNewlines(text));

      // Id first (stores the escapes without keeping paths), then the paths from the store.
      const idFirst = utf8Diff(text);
      assert.equal(briefId({ diff: idFirst, ...PARTS }), want.id);
      assert.deepEqual(diffPaths(idFirst), want.paths);
      assert.equal(jsonText({ diff: idFirst, paths: want.paths }), want.json);
    });
  }

  it('a scanner shared by two diffs read in turn keeps each one’s paths apart', () => {
    const a = HOSTILE['60,000 distinct paths (the memory grows while paths are kept)']!();
    const b = HOSTILE['CRLF everywhere']!();
    const [da, db] = [utf8Diff(a), utf8Diff(b)];
    assert.deepEqual(diffPaths(db), expected(b).paths);
    assert.deepEqual(diffPaths(da), expected(a).paths);
    assert.equal(jsonText({ diff: db, paths: diffPaths(db) }), expected(b).json);
  });
});

describe('brief scanner, red team: SHA-256 across its hand-overs', () => {
  const nodeSha = (bytes: Uint8Array): string => createHash('sha256').update(bytes).digest('hex');

  it('the WebAssembly SHA-256 gives node:crypto’s digest at every padding edge near 2 KiB and 256 KiB, big then small', () => {
    // Big inputs first, so a smaller one runs over memory a bigger one left its bytes in.
    for (const base of [MID_INPUT, SMALL_INPUT]) {
      for (let n = base + 72; n >= base - 72; n -= 1) {
        const bytes = Buffer.alloc(n, (n * 13) & 0xff);
        assert.equal(sha256HexInWasm([bytes], n), nodeSha(bytes), `length ${n}`);
      }
    }
    // Grows its memory beyond what it had (4 MiB), then hashes a small input again.
    const big = Buffer.alloc(4 * 1024 * KiB, 0xa5);
    assert.equal(sha256HexInWasm([big.subarray(0, 1000), big.subarray(1000)], big.length), nodeSha(big));
    const small = Buffer.from('abc');
    assert.equal(sha256HexInWasm([small], small.length), nodeSha(small));
  });

  it('the adaptive hash gives node:crypto’s digest for many small pieces crossing both hand-overs', () => {
    for (const total of [
      SMALL_INPUT - 1,
      SMALL_INPUT,
      SMALL_INPUT + 1,
      MID_INPUT,
      MID_INPUT + 1,
      MID_INPUT + 4099,
    ]) {
      const bytes = Buffer.from(Array.from({ length: total }, (_, i) => (i * 31 + 7) & 0xff));
      const hash = sha256();
      for (let at = 0; at < total; at += 997) hash.updateBytes(bytes.subarray(at, Math.min(total, at + 997)));
      assert.equal(hash.digest('hex'), nodeSha(bytes), `total ${total}`);
      // The caller may reuse its buffer once updateBytes returns.
      const reused = Buffer.from(bytes);
      const again = sha256();
      again.updateBytes(reused);
      reused.fill(0);
      assert.equal(again.digest('hex'), nodeSha(bytes), `reused buffer, total ${total}`);
    }
  });
});

describe('brief scanner, red team: a diff of lines longer than a chunk is cut in linear time', () => {
  /**
   * The bytes Buffer#indexOf reads during `run`: up to its hit, or to the end when there is none.
   * A count of work, not a clock: the cut of a chunk must not search the rest of the diff for
   * the other kind of break once per chunk (80 MiB of 70 KiB lines: ~3 s a pass, ~30 s at 256 MiB).
   */
  function bytesSearched(run: () => void): number {
    const original = Buffer.prototype.indexOf;
    let searched = 0;
    Buffer.prototype.indexOf = function (
      this: Buffer,
      value: unknown,
      from?: unknown,
      ...rest: unknown[]
    ): number {
      const at = (original as (...args: unknown[]) => number).call(this, value, from, ...rest);
      const start = typeof from === 'number' ? (from < 0 ? Math.max(0, this.length + from) : from) : 0;
      searched += (at === -1 ? this.length : at + 1) - Math.min(start, this.length);
      return at;
    };
    try {
      run();
    } finally {
      Buffer.prototype.indexOf = original;
    }
    return searched;
  }

  for (const ending of ['\n', '\r', '\r\n']) {
    it(`reads each byte a bounded number of times for 70 KiB lines ending in ${JSON.stringify(ending)}`, () => {
      const line = '+' + 'x'.repeat(70 * KiB - 1 - ending.length) + ending;
      const bytes = Buffer.from(line.repeat(64), 'latin1'); // 4.4 MiB
      const diff = new Utf8Diff(Buffer.from(bytes), { ascii: true });
      let read = 0;
      const searched = bytesSearched(() => {
        for (const chunk of diff.chunks()) read += chunk.length;
      });
      assert.equal(read, pyUniversalNewlines(bytes.toString('latin1')).length);
      assert.ok(searched <= 3 * bytes.length, `searched ${searched} bytes of a ${bytes.length}-byte diff`);
    });
  }
});
