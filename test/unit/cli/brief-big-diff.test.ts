// `brief` keeps the diff as bytes (engine/brief/utf8-diff.ts). Through the real CLI, a diff of
// several chunks that mixes every character class that matters must print exactly the packet
// (and the human line) today's string path computes in-process from the decoded text.
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { jsonText } from '../../../src/cli/print-json';
import { brief } from '../../../src/engine/brief';
import { isRefusal } from '../../../src/engine/refusal';
import type { Ledger } from '../../../src/engine/types';
import { readLedger, writeText } from '../helpers/cli';
import { assertNoStack, loopWith, type Loop } from './setup';

const CHUNK = 1 << 16;

/** One file's worth of diff, with everything the byte path must carry exactly. */
function block(i: number): string {
  return [
    `diff --git a/src/caf\u00e9-${i}.ts b/src/caf\u00e9-${i}.ts\r\n`,
    `--- a/src/caf\u00e9-${i}.ts\t2024-01-01\r\n`,
    `+++ b/src/caf\u00e9-${i}.ts\r\n`,
    '@@ -1,3 +1,3 @@\n',
    `-old "quoted" \\ back\x7f\x01\x1b[31m\n`,
    `+new \u4e2d\u6587 \ud83d\ude00 \u{10ffff}\r`, // a lone \r ends this line
    `--- a/lone-cr-${i}.md\r+++ b/lone-cr-${i}.md\r`,
    i % 7 === 0 ? `+rare\u2028+++ b/after-line-separator-${i}.txt\n` : '',
    i % 11 === 0 ? `+form\f--- a/after-form-feed-${i}.txt\v\x85\n` : '',
    `diff --git a/with space/${i}.ts b/with space/${i}.ts\n`,
    ' context\t\u00a0\u3000\n',
  ].join('');
}

function bigDiff(): string {
  const parts: string[] = [];
  let size = 0;
  for (let i = 0; size < 3 * CHUNK + 1234; i += 1) {
    const b = block(i);
    parts.push(b);
    size += Buffer.byteLength(b);
  }
  return parts.join('') + 'diff --git a/the-end.ts b/the-end.ts'; // no final line break
}

/** What today's string path prints for this diff, computed in-process from the decoded file. */
function expectedPacket(loop: Loop, diffBytes: Buffer, verification: string, scope?: string): unknown {
  const text = new TextDecoder('utf-8', { fatal: true }).decode(diffBytes);
  const ledger = readLedger(loop.root, loop.session) as Ledger;
  const result = brief(ledger, {
    diff: { path: 'd', text },
    verification: { path: 'v', text: verification },
    changeScope: scope === undefined ? undefined : { path: 's', text: scope },
  });
  if (isRefusal(result)) assert.fail(result.findings.map((f) => f.message).join('; '));
  return result.payload;
}

describe('cli: brief on a diff of several chunks', () => {
  it('prints the packet and the human line the string path computes, byte for byte', () => {
    const loop = loopWith();
    const text = bigDiff();
    const bytes = Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(text, 'utf8')]); // with a BOM
    assert.ok(bytes.length > 3 * CHUNK);
    const diff = writeText(join(loop.root, 'big.diff'), bytes);
    const verification = '12 passing\r\nno failures\n';
    const verify = writeText(join(loop.root, 'verify.txt'), verification);

    const payload = expectedPacket(loop, bytes, verification) as {
      brief_id: string;
      scope: { diff_paths: string[] };
    };
    assert.ok(payload.scope.diff_paths.includes('after-line-separator-0.txt'));
    assert.ok(payload.scope.diff_paths.includes('lone-cr-3.md'));
    const json = loop.cli('brief', '--diff-file', diff, '--verification-file', verify, '--json');
    assert.equal(json.code, 0, json.stderr);
    assert.equal(json.stdout, jsonText(payload));
    assert.deepEqual(readLedger(loop.root, loop.session).pending_brief, { brief_id: payload.brief_id });

    const human = loop.cli('brief', '--diff-file', diff, '--verification-file', verify);
    assert.equal(human.code, 0, human.stderr);
    assert.equal(
      human.stdout,
      `${loop.session}: brief ${payload.brief_id} pending (scope unverified, ${payload.scope.diff_paths.length} file(s) in the diff)\n`,
    );
  });

  it('reads a mostly ASCII diff past the scanner’s threshold exactly as the string path does', () => {
    // ASCII chunks go to the WebAssembly scanner (engine/brief/diff-scan.wat); one chunk in the
    // middle holds a non-ASCII character and stays on the JavaScript path.
    const loop = loopWith();
    const files: string[] = [];
    for (let i = 0; files.join('').length < 12 * CHUNK; i += 1) {
      const path = `pkg${i % 13}/src/file "${i}"\\x.ts`;
      files.push(
        [
          `diff --git a/${path} b/${path}\r\n`,
          i % 5 === 0 ? `--- /dev/null\n+++ b/${path}\t(new)\n` : `--- a/${path}\n+++ b/${path}\n`,
          `@@ -1,3 +1,3 @@ function f${i}() {\n`,
          `-  return "old\\t${i}";\x7f\n`,
          `+  return 'new ${i}';\t\x01\r`,
          i % 9 === 0 ? `+form\f--- a/after-form-feed-${i}.txt\v+++ b/after-vt-${i}.txt\x1c\n` : '',
          i % 17 === 0 ? `diff --git a/two words/${i} b/two words/${i}\n` : '',
          i === 150 ? '+caf\u00e9\n' : '',
          '-- not a path\n++ also not\n',
        ].join(''),
      );
    }
    const text = files.join('') + '+++ b/the-end.ts'; // no final line break
    const bytes = Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(text, 'utf8')]);
    assert.ok(bytes.length > 512 * 1024);
    const diff = writeText(join(loop.root, 'ascii.diff'), bytes);
    const verify = writeText(join(loop.root, 'verify.txt'), 'ok\n');
    const scopeText = 'pkg0/src/file "0"\\x.ts\nafter-vt-9.txt\nthe-end.ts\n';
    const scope = writeText(join(loop.root, 'scope.txt'), scopeText);
    for (const scoped of [false, true]) {
      const payload = expectedPacket(loop, bytes, 'ok\n', scoped ? scopeText : undefined) as {
        scope: { diff_paths: string[] };
      };
      assert.ok(payload.scope.diff_paths.includes('after-form-feed-9.txt'));
      const r = loop.cli(
        'brief',
        '--diff-file',
        diff,
        '--verification-file',
        verify,
        ...(scoped ? ['--change-scope', scope] : []),
        '--json',
      );
      assert.equal(r.code, 0, r.stderr);
      assert.equal(r.stdout, jsonText(payload));
    }
  });

  it('verifies a declared scope over the big diff exactly as the string path does', () => {
    const loop = loopWith();
    const bytes = Buffer.from(bigDiff(), 'utf8');
    const diff = writeText(join(loop.root, 'big.diff'), bytes);
    const verify = writeText(join(loop.root, 'verify.txt'), 'ok\n');
    const scopeText = 'src/caf\u00e9-0.ts\nthe-end.ts\n';
    const scope = writeText(join(loop.root, 'scope.txt'), scopeText);
    const payload = expectedPacket(loop, bytes, 'ok\n', scopeText);
    const r = loop.cli(
      'brief',
      '--diff-file',
      diff,
      '--verification-file',
      verify,
      '--change-scope',
      scope,
      '--json',
    );
    assert.equal(r.code, 0, r.stderr);
    assert.equal(r.stdout, jsonText(payload));
    assert.equal(r.json.scope.provenance, 'verified');
  });

  it('prints a diff of control characters (escapes six times its size) exactly, past the overflow budget', () => {
    const loop = loopWith();
    const text = 'diff --git a/ctl.bin b/ctl.bin\n' + ('+' + '\x01\x02\x1b'.repeat(40) + '\n').repeat(3000);
    const bytes = Buffer.from(text, 'utf8');
    const diff = writeText(join(loop.root, 'ctl.diff'), bytes);
    const verify = writeText(join(loop.root, 'verify.txt'), 'ok\n');
    const payload = expectedPacket(loop, bytes, 'ok\n');
    const r = loop.cli('brief', '--diff-file', diff, '--verification-file', verify, '--json');
    assert.equal(r.code, 0, r.stderr);
    assert.equal(r.stdout, jsonText(payload));
  });

  it('refuses a diff with one invalid byte past its first chunk (exit 8, named, nothing armed)', () => {
    const loop = loopWith();
    const good = Buffer.from(bigDiff(), 'utf8');
    const bad = Buffer.concat([
      good.subarray(0, 2 * CHUNK),
      Buffer.from([0xed, 0xa0, 0x80]),
      good.subarray(2 * CHUNK),
    ]);
    const diff = writeText(join(loop.root, 'bad.diff'), bad);
    const verify = writeText(join(loop.root, 'verify.txt'), 'ok\n');
    const r = loop.cli('brief', '--diff-file', diff, '--verification-file', verify, '--json');
    assert.equal(r.code, 8);
    assert.match(r.stderr, /^--diff-file .*bad\.diff: the diff cannot be read \(is not valid UTF-8 text\)/);
    assertNoStack(r.stderr);
    assert.equal(r.stdout, '');
    assert.equal(readLedger(loop.root, loop.session).pending_brief, null);
  });

  it('refuses a big whitespace-only diff as empty (exit 8)', () => {
    const loop = loopWith();
    const blank = ' \t\r\n\u00a0\u3000\u2028\v'.repeat(30_000);
    const diff = writeText(join(loop.root, 'blank.diff'), blank);
    const verify = writeText(join(loop.root, 'verify.txt'), 'ok\n');
    const r = loop.cli('brief', '--diff-file', diff, '--verification-file', verify);
    assert.equal(r.code, 8);
    assert.match(r.stderr, /^--diff-file .*blank\.diff: the diff is empty/);
  });
});
