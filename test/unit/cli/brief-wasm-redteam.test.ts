// Red-team net for the brief's WebAssembly scanner through the real CLI (dist/cli.js as a child
// process): hostile diffs past the scanner's threshold must print exactly the packet the string
// path computes in-process, verify or refuse a change scope exactly as it does, and refuse bad
// bytes with a named one-line error, never a crash.
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { jsonText } from '../../../src/cli/print-json';
import { brief } from '../../../src/engine/brief';
import { isRefusal } from '../../../src/engine/refusal';
import type { Ledger } from '../../../src/engine/types';
import { readLedger, writeText } from '../helpers/cli';
import { assertNoStack, loopWith, type Loop } from './setup';

const KiB = 1024;

/** One file of an ASCII diff with every edge the scanner handles specially. */
function hostileBlock(i: number): string {
  return [
    `diff --git a/q"${i}\\x b/q"${i}\\x\r\n`,
    `--- a/q"${i}\\x\t2024-01-01\r\n`,
    `+++ b/q"${i}\\x\r`, // a lone \r ends this line
    `@@ -1 +1 @@\n-\x00\x01\x7f "old" \\\n`,
    `+new\v--- a/after-vt-${i % 40}\f+++ b/after-ff-${i % 40}\x1c--- a/after-fs-${i % 40}\n`,
    `diff --git \x1f a/pad-${i % 30}\t b/pad-${i % 30} \x1f\n`,
    `diff --git a/three ${i} b/three\n--- /dev/null\n+++ a/\n`,
    '-- not a path\n++ nor this\n',
  ].join('');
}

function hostileDiff(size: number): string {
  const parts: string[] = [];
  let length = 0;
  for (let i = 0; length < size; i += 1) {
    const block = hostileBlock(i);
    parts.push(block);
    length += block.length;
  }
  return parts.join('') + '+++ b/the-end'; // no final line break
}

/** The packet the string path computes in-process from the decoded file. */
function expectedPacket(
  loop: Loop,
  bytes: Buffer,
  scope?: string,
): { brief_id: string; scope: { diff_paths: string[] } } {
  const text = new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  const result = brief(readLedger(loop.root, loop.session) as Ledger, {
    diff: { path: 'd', text },
    verification: { path: 'v', text: 'ok\n' },
    changeScope: scope === undefined ? undefined : { path: 's', text: scope },
  });
  if (isRefusal(result)) assert.fail(result.findings.map((f) => f.message).join('; '));
  return result.payload as unknown as { brief_id: string; scope: { diff_paths: string[] } };
}

function briefOf(loop: Loop, diffFile: string, ...more: string[]) {
  const verify = writeText(join(loop.root, 'verify.txt'), 'ok\n');
  return loop.cli('brief', '--diff-file', diffFile, '--verification-file', verify, ...more);
}

describe('cli: brief scanner, red team', () => {
  it('prints a hostile ASCII diff (CR, rare breaks, quotes, NUL, DEL, padded headers) exactly, with and without a BOM', () => {
    const loop = loopWith();
    const text = hostileDiff(700 * KiB);
    for (const bom of [false, true]) {
      const bytes = Buffer.concat([Buffer.from(bom ? [0xef, 0xbb, 0xbf] : []), Buffer.from(text, 'latin1')]);
      const payload = expectedPacket(loop, bytes);
      assert.ok(payload.scope.diff_paths.includes('after-fs-7'));
      assert.ok(payload.scope.diff_paths.includes('q"3\\x'));
      const r = briefOf(loop, writeText(join(loop.root, `hostile-${bom}.diff`), bytes), '--json');
      assert.equal(r.code, 0, r.stderr);
      assert.equal(r.stdout, jsonText(payload));
      assert.deepEqual(readLedger(loop.root, loop.session).pending_brief, { brief_id: payload.brief_id });
    }
  });

  it('verifies a change scope over it, and refuses one naming a path the diff lacks (exit 9, named, nothing armed)', () => {
    const loop = loopWith();
    const bytes = Buffer.from(hostileDiff(400 * KiB), 'latin1');
    const diff = writeText(join(loop.root, 'hostile.diff'), bytes);
    const good = 'after-vt-3\npad-7\nthe-end\n';
    const payload = expectedPacket(loop, bytes, good);
    const ok = briefOf(loop, diff, '--change-scope', writeText(join(loop.root, 'good.txt'), good), '--json');
    assert.equal(ok.code, 0, ok.stderr);
    assert.equal(ok.stdout, jsonText(payload));
    assert.equal(ok.json.scope.provenance, 'verified');

    const fresh = loopWith();
    // `three 0` is named only by a three-sided header (ignored); `after-vt-99` never occurs.
    const bad = writeText(join(fresh.root, 'bad.txt'), 'pad-1\nthree 0\nafter-vt-99\n');
    const refused = briefOf(fresh, writeText(join(fresh.root, 'hostile.diff'), bytes), '--change-scope', bad);
    assert.equal(refused.code, 9, refused.stderr);
    assert.match(refused.stderr, /three 0: named by the change scope but missing from the diff/);
    assert.match(refused.stderr, /after-vt-99: named by the change scope but missing from the diff/);
    assertNoStack(refused.stderr);
    assert.equal(refused.stdout, '');
    assert.equal(readLedger(fresh.root, fresh.session).pending_brief, null);
  });

  it('prints a diff of lines longer than a chunk (up to past the scanner’s 256 KiB chunk limit) exactly', () => {
    const loop = loopWith();
    const parts: string[] = [];
    for (const [i, size] of [70, 255, 256, 257, 300, 90].entries()) {
      parts.push(
        `diff --git a/long-${i} b/long-${i}\n+${'"\\\x01x'.repeat(size * 256).slice(0, size * KiB - 3)}\r\n`,
      );
    }
    const bytes = Buffer.from(parts.join('') + '--- a/tail', 'latin1');
    const payload = expectedPacket(loop, bytes);
    assert.equal(payload.scope.diff_paths.length, 7);
    const r = briefOf(loop, writeText(join(loop.root, 'long.diff'), bytes), '--json');
    assert.equal(r.code, 0, r.stderr);
    assert.equal(r.stdout, jsonText(payload));
  });

  for (const [name, tail] of [
    ['a stray 0xff as the very last byte', [0xff]],
    ['a character cut short at the end', [0xe2, 0x82]],
    ['a NUL then an overlong encoding deep in the diff', [0x00, 0xc0, 0xaf, 0x0a]],
  ] as const) {
    it(`refuses an ASCII diff past the threshold with ${name} (exit 8, named, nothing armed)`, () => {
      const loop = loopWith();
      const bytes = Buffer.concat([Buffer.from(hostileDiff(300 * KiB), 'latin1'), Buffer.from(tail)]);
      const r = briefOf(loop, writeText(join(loop.root, 'bad.diff'), bytes), '--json');
      assert.equal(r.code, 8, r.stderr);
      assert.match(r.stderr, /^--diff-file .*bad\.diff: the diff cannot be read \(is not valid UTF-8 text\)/);
      assertNoStack(r.stderr);
      assert.equal(r.stdout, '');
      assert.equal(readLedger(loop.root, loop.session).pending_brief, null);
    });
  }
});

describe('cli: brief scanner, red team — one 20 MiB line', () => {
  it('prints a diff that is one 20 MiB ASCII line (no break at all) exactly', () => {
    const loop = loopWith();
    const bytes = Buffer.from('--- a/' + 'ab"\\\x7f\t'.repeat((20 * 1024 * KiB) / 6), 'latin1');
    const payload = expectedPacket(loop, bytes);
    assert.equal(payload.scope.diff_paths.length, 1);
    const r = briefOf(loop, writeText(join(loop.root, 'one-line.diff'), bytes), '--json');
    assert.equal(r.code, 0, r.stderr);
    assert.equal(r.stdout, jsonText(payload));
  });
});
