// Hostile input through the real CLI: every case is refused with a clear stderr line (one per
// finding, never a stack trace), the documented exit code, and not one byte written anywhere
// under the workspace — or, for the big-but-ordinary inputs, accepted.
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import {
  closeSync,
  ftruncateSync,
  lstatSync,
  mkdirSync,
  openSync,
  readdirSync,
  readFileSync,
  rmSync,
} from 'node:fs';
import { join } from 'node:path';
import {
  ledgerPath,
  readLedger,
  runCli,
  sampleContract,
  tempRoot,
  writeJson,
  writeText,
  type CliResult,
} from '../helpers/cli';

const KiB = 1024;
const MiB = 1024 * KiB;
/** One argument close to the kernel's per-argument cap (MAX_ARG_STRLEN, 128 KiB). */
const HUGE = 120 * KiB;
/** printFindings keeps a line readable; anything longer is a message that quotes raw input. */
const MAX_LINE = 2100;

/** Every path under `dir` (folders too) with its content hash: what "nothing written" compares. */
function snapshot(dir: string, skip: ReadonlySet<string> = new Set()): Record<string, string> {
  const out: Record<string, string> = {};
  const walk = (path: string, rel: string) => {
    for (const name of readdirSync(path).sort()) {
      const full = join(path, name);
      const key = rel === '' ? name : `${rel}/${name}`;
      if (skip.has(full)) continue;
      const stat = lstatSync(full);
      if (stat.isDirectory()) {
        out[`${key}/`] = 'dir';
        walk(full, key);
      } else {
        out[key] = `${stat.size}:${createHash('sha256').update(readFileSync(full)).digest('hex')}`;
      }
    }
  };
  walk(dir, '');
  return out;
}

/** One readable line per finding: no stack frame, no bare Node error, nothing huge. */
function assertClearLines(result: CliResult, lines: number | 'some'): string[] {
  const { stderr } = result;
  assert.ok(stderr.endsWith('\n'), `stderr does not end a line: ${JSON.stringify(stderr.slice(-200))}`);
  const found = stderr.slice(0, -1).split('\n');
  if (lines === 'some') assert.ok(found.length >= 1);
  else assert.equal(found.length, lines, `expected ${lines} stderr line(s), got:\n${stderr.slice(0, 4000)}`);
  for (const line of found) {
    assert.ok(line.trim() !== '', 'a blank stderr line');
    assert.ok(line.length <= MAX_LINE, `a ${line.length}-character stderr line: ${line.slice(0, 200)}…`);
    assert.doesNotMatch(line, /^\s+at /, `a stack frame on stderr:\n${stderr.slice(0, 2000)}`);
    assert.doesNotMatch(line, /^(\w*Error|Uncaught)\b( \[\w+\])?:/, `a raw Node error on stderr: ${line}`);
    assert.doesNotMatch(line, /node:internal|\.js:\d+/, `an internal location on stderr: ${line}`);
  }
  return found;
}

describe('reliability: hostile input', function () {
  this.timeout(120_000);

  let base: string; // snapshotted: the workspace and everything beside it, except the inputs
  let root: string; // a workspace with an open ledger `live` (one iteration) and others
  let fresh: string; // an empty workspace: a refusal must not even create .loop/
  let inputs: string; // hostile files: read by the CLI, never compared
  let contract: string;
  let diff: string;
  let verification: string;

  const input = (name: string, content: string | Buffer) => writeText(join(inputs, name), content);

  before(() => {
    base = tempRoot('loop-ledger-hostile-');
    root = join(base, 'ws');
    fresh = join(base, 'fresh');
    inputs = join(base, 'in');
    mkdirSync(root);
    mkdirSync(fresh);
    mkdirSync(inputs);
    contract = writeJson(join(inputs, 'contract.json'), sampleContract({ iteration_limit: 1000 }));
    diff = input(
      'small.diff',
      'diff --git a/src/a.ts b/src/a.ts\n--- a/src/a.ts\n+++ b/src/a.ts\n@@ -1 +1 @@\n-a\n+b\n',
    );
    verification = input('verification.txt', 'all 12 tests passed\n');
    assert.equal(runCli(['open', '--root', root, '--session', 'live', '--contract', contract]).code, 0);
    const first = runCli([
      'iterate',
      '--root',
      root,
      '--session',
      'live',
      '--outcome',
      'continue',
      '--action',
      'a1',
    ]);
    assert.equal(first.code, 0, first.stderr);
  });

  after(() => rmSync(base, { recursive: true, force: true }));

  /**
   * Runs the CLI and asserts the refusal: exit code, empty stdout, clear stderr lines matching
   * `mentions`, and the whole of `base` (minus the inputs) byte-for-byte unchanged.
   */
  function refused(
    args: string[],
    code: number,
    mentions: RegExp,
    opts: { lines?: number | 'some' } = {},
  ): CliResult {
    const skip = new Set([inputs]);
    const before = snapshot(base, skip);
    const result = runCli(args);
    const shown = `loop-ledger ${args.map((a) => (a.length > 60 ? `<${a.length} chars>` : a)).join(' ')}`;
    assert.equal(result.code, code, `${shown}: exit ${result.code}, stderr: ${result.stderr.slice(0, 1000)}`);
    assert.equal(result.stdout, '', `${shown}: printed on stdout`);
    const lines = assertClearLines(result, opts.lines ?? 1);
    assert.ok(
      lines.some((line) => mentions.test(line)),
      `${shown}: no stderr line matches ${mentions}:\n${result.stderr.slice(0, 2000)}`,
    );
    assert.deepEqual(snapshot(base, skip), before, `${shown}: wrote something`);
    return result;
  }

  /** The same flags for every subcommand that takes a session, so each one is probed. */
  function everyCommand(session: string, at = root): string[][] {
    const common = ['--root', at, '--session', session];
    return [
      ['open', ...common, '--contract', contract],
      ['iterate', ...common, '--outcome', 'continue', '--action', 'x'],
      ['brief', ...common, '--diff-file', diff, '--verification-file', verification],
      ['score', ...common, '--measure', 'hard-one=1', '--measure', 'soft-one=1'],
      ['status', ...common],
      ['resume', ...common],
      ['close', ...common, '--outcome', 'stop'],
    ];
  }

  describe('session ids', () => {
    const bad: [string, string][] = [
      ['a parent reference', '../x'],
      ['a deep escape', '../../../../../../tmp/escaped'],
      ['a separator', 'a/b'],
      ['a backslash', 'a\\b'],
      ['the empty string', ''],
      ['129 characters', 's'.repeat(129)],
      ['a newline', 'a\nb'],
      ['a trailing newline', 'live\n'],
      ['a leading dot', '.hidden'],
      ['a NUL-free control character', 'a\tb'],
      ['120 KiB', 's'.repeat(HUGE)],
    ];
    for (const [what, id] of bad) {
      it(`refuses ${what} with exit 2 on every command, writing nothing`, () => {
        for (const args of [...everyCommand(id), ...everyCommand(id, fresh)]) {
          refused(args, 2, /session id .* is not valid/);
        }
      });
    }
  });

  it('refuses a valid id with no ledger in a fresh workspace (exit 2) without creating .loop/', () => {
    for (const args of everyCommand('nobody', fresh).filter(([command]) => command !== 'open')) {
      refused(args, 2, /nobody: no ledger/);
    }
  });

  describe('120 KiB arguments', () => {
    it('accepts a 120 KiB --note and records it whole', () => {
      const note = 'n'.repeat(HUGE);
      const result = runCli([
        'iterate',
        '--root',
        root,
        '--session',
        'live',
        '--outcome',
        'continue',
        '--note',
        note,
      ]);
      assert.equal(result.code, 0, result.stderr);
      const ledger = readLedger(root, 'live');
      assert.equal(ledger.iterations[ledger.iterations.length - 1].note, note);
    });

    it('refuses a 120 KiB --outcome with exit 2, naming the choices', () => {
      const common = ['--root', root, '--session', 'live', '--outcome', 'o'.repeat(HUGE)];
      refused(['iterate', ...common], 2, /--outcome.*continue/);
      refused(['close', ...common], 2, /--outcome.*continue/);
    });

    it('refuses a 120 KiB unknown flag or extra argument with exit 2', () => {
      refused(['status', '--root', root, '--session', 'live', `--${'z'.repeat(HUGE)}`], 2, /z/);
      refused(['status', '--root', root, '--session', 'live', 'p'.repeat(HUGE)], 2, /argument/);
      refused(
        [
          'open',
          '--root',
          root,
          '--session',
          'x',
          '--contract',
          contract,
          '--stall-threshold',
          '7'.repeat(HUGE),
        ],
        2,
        /--stall-threshold/,
      );
    });

    it('refuses a 120 KiB --measure name or value with exit 1', () => {
      const soft = ['--measure', 'soft-one=1'];
      for (const command of ['iterate', 'score']) {
        const common = [command, '--root', root, '--session', 'live'];
        const outcome = command === 'iterate' ? ['--outcome', 'continue'] : [];
        refused(
          [...common, ...outcome, '--measure', `${'m'.repeat(HUGE)}=1`, '--measure', 'hard-one=1', ...soft],
          1,
          /no such dimension/,
        );
        refused(
          [...common, ...outcome, '--measure', `hard-one=${'9'.repeat(HUGE)}`, ...soft],
          1,
          /hard-one.*not a finite number/,
        );
        refused(
          [...common, ...outcome, '--measure', `hard-one=${'1'.repeat(HUGE)}x`, ...soft],
          1,
          /hard-one.*not a number/,
        );
      }
    });

    it('refuses a 120 KiB file path with exit 2 (contract) or 8 (brief input), naming the reason', () => {
      const longPath = join(inputs, 'p'.repeat(HUGE));
      refused(
        ['open', '--root', root, '--session', 'x', '--contract', longPath],
        2,
        /contract file .*(long|no such)/i,
      );
      refused(['validate', '--root', root, longPath], 2, /contract file .*(long|no such)/i);
      refused(
        [
          'brief',
          '--root',
          root,
          '--session',
          'live',
          '--diff-file',
          longPath,
          '--verification-file',
          verification,
        ],
        8,
        /(long|no such)/i,
      );
    });
  });

  describe('big files', () => {
    /** A git diff shaped like a real one: many files, headers, hunks, context lines. */
    function realisticDiff(bytes: number): string {
      const parts: string[] = [];
      let size = 0;
      for (let file = 0; size < bytes; file += 1) {
        const path = `src/module${file % 97}/file${file}.ts`;
        let chunk = `diff --git a/${path} b/${path}\nindex 3f2a1b4..8c9d0e1 100644\n--- a/${path}\n+++ b/${path}\n`;
        for (let hunk = 0; hunk < 4; hunk += 1) {
          chunk += `@@ -${hunk * 40 + 1},7 +${hunk * 40 + 1},7 @@ export function f${hunk}() {\n`;
          chunk += `   const value = compute(${hunk});\n   if (value > ${file}) {\n-    return old(value);\n+    return next(value, ${file});\n   }\n   return value;\n }\n`;
        }
        parts.push(chunk);
        size += chunk.length;
      }
      return parts.join('');
    }

    it('refuses a 10 MB contract with exit 2 (over the contract size limit)', () => {
      const big = input(
        'big-contract.json',
        JSON.stringify(sampleContract({ purpose: 'p'.repeat(10 * MiB) })),
      );
      for (const at of [root, fresh]) {
        refused(['open', '--root', at, '--session', 'big', '--contract', big], 2, /contract file .*limit/);
      }
      refused(['validate', big], 2, /contract file .*limit/);
    });

    it('accepts a 10 MB diff for brief', () => {
      const big = input('big.diff', realisticDiff(10 * MiB));
      const result = runCli([
        'brief',
        '--root',
        root,
        '--session',
        'live',
        '--diff-file',
        big,
        '--verification-file',
        verification,
        '--json',
      ]);
      assert.equal(result.code, 0, result.stderr.slice(0, 1000));
      assert.equal(result.json.diff.length, readFileSync(big, 'utf8').length);
      assert.equal(readLedger(root, 'live').pending_brief.brief_id, result.json.brief_id);
    });

    it('refuses a diff over the 256 MiB input limit with exit 8 before reading it', () => {
      const path = join(inputs, 'huge.diff');
      const fd = openSync(path, 'w');
      ftruncateSync(fd, 256 * MiB + 1); // sparse: no disk or memory spent
      closeSync(fd);
      refused(
        [
          'brief',
          '--root',
          root,
          '--session',
          'live',
          '--diff-file',
          path,
          '--verification-file',
          verification,
        ],
        8,
        /huge\.diff.*limit/,
      );
    });
  });

  describe('numbers', () => {
    const values = ['NaN', 'nan', '-nan', '1e999', '-1e999', 'inf', '-inf', 'Infinity', '+Infinity'];
    for (const value of values) {
      it(`refuses --measure hard-one=${value} with exit 1 (iterate and score)`, () => {
        const measures = ['--measure', `hard-one=${value}`, '--measure', 'soft-one=1'];
        refused(
          ['iterate', '--root', root, '--session', 'live', '--outcome', 'continue', ...measures],
          1,
          /hard-one.*not a finite number/,
        );
        refused(
          ['score', '--root', root, '--session', 'live', ...measures],
          1,
          /hard-one.*not a finite number/,
        );
      });
    }

    it('refuses non-finite and null contract numbers with exit 1', () => {
      // JSON has no Infinity literal, but 1e999 parses to it.
      const text = JSON.stringify(sampleContract()).replace('"baseline":10', '"baseline":1e999');
      assert.match(text, /1e999/);
      const inf = input('inf-contract.json', text);
      refused(['open', '--root', fresh, '--session', 'inf', '--contract', inf], 1, /baseline/, {
        lines: 'some',
      });
      const nul = input('null-contract.json', JSON.stringify(sampleContract({ owner: null })));
      refused(['open', '--root', fresh, '--session', 'null-owner', '--contract', nul], 1, /owner/, {
        lines: 'some',
      });
    });
  });

  describe('encodings', () => {
    const latin1 = Buffer.from(JSON.stringify(sampleContract({ owner: 'équipe café' })), 'latin1');
    const truncatedUtf8 = Buffer.concat([
      Buffer.from(JSON.stringify(sampleContract()).slice(0, -2)),
      Buffer.from([0xe2, 0x82]),
    ]);

    it('refuses a non-UTF-8 contract with exit 2 (open and validate)', () => {
      for (const [name, bytes] of [
        ['latin1.json', latin1],
        ['truncated.json', truncatedUtf8],
      ] as const) {
        const path = input(name, bytes);
        for (const at of [root, fresh]) {
          refused(['open', '--root', at, '--session', 'enc', '--contract', path], 2, /UTF-8/);
        }
        refused(['validate', path], 2, /UTF-8/);
      }
    });

    it('refuses a non-UTF-8 diff, verification or change scope with exit 8', () => {
      const bad = input('latin1.diff', Buffer.from('diff --git a/café b/café\n+é\n', 'latin1'));
      const scope = input('scope.txt', 'src/a.ts\n');
      const session = ['brief', '--root', root, '--session', 'live'];
      refused(
        [...session, '--diff-file', bad, '--verification-file', verification],
        8,
        /latin1\.diff.*UTF-8/,
      );
      refused([...session, '--diff-file', diff, '--verification-file', bad], 8, /latin1\.diff.*UTF-8/);
      refused(
        [...session, '--diff-file', diff, '--verification-file', verification, '--change-scope', bad],
        8,
        /UTF-8/,
      );
      // And a good brief still works afterwards.
      const ok = runCli([
        ...session,
        '--diff-file',
        diff,
        '--verification-file',
        verification,
        '--change-scope',
        scope,
      ]);
      assert.equal(ok.code, 0, ok.stderr);
    });
  });

  describe('contract shapes', () => {
    it('refuses a "__proto__" contract field with exit 1, naming it', () => {
      const text = JSON.stringify(sampleContract()).replace(
        /^\{/,
        '{"__proto__":{"iteration_limit":"x","polluted":true},',
      );
      const path = input('proto.json', text);
      for (const at of [root, fresh]) {
        refused(['open', '--root', at, '--session', 'proto', '--contract', path], 1, /__proto__/);
      }
      refused(['validate', path], 1, /__proto__/);
    });

    it('refuses "__proto__" and "constructor" keys in a rubric entry with exit 1, naming them', () => {
      const text = JSON.stringify(sampleContract()).replace(
        '{"dimension":"hard-one"',
        '{"__proto__":{"hard_gate":false},"constructor":1,"dimension":"hard-one"',
      );
      const path = input('proto-rubric.json', text);
      const result = refused(
        ['open', '--root', fresh, '--session', 'proto', '--contract', path],
        1,
        /__proto__/,
        { lines: 'some' },
      );
      assert.match(result.stderr, /constructor/);
    });

    it('refuses a contract nested 100000 levels deep with exit 1', () => {
      const deep = '['.repeat(100_000) + ']'.repeat(100_000);
      const whole = input('deep.json', `{"purpose": ${deep}}`);
      const inside = input(
        'deep-inside.json',
        JSON.stringify(sampleContract()).replace('"owner":"parser team"', `"owner":${deep}`),
      );
      const objects = input(
        'deep-objects.json',
        `{"purpose": ${'{"a":'.repeat(100_000)}1${'}'.repeat(100_000)}}`,
      );
      for (const path of [whole, inside, objects]) {
        for (const at of [root, fresh]) {
          refused(['open', '--root', at, '--session', 'deep', '--contract', path], 1, /nested|deep/);
        }
        refused(['validate', path], 1, /nested|deep/);
      }
    });
  });

  describe('damaged ledgers', () => {
    /** Deterministic garbage (a fixed xorshift): not UTF-8, not JSON. */
    function garbage(length: number): Buffer {
      const bytes = Buffer.alloc(length);
      let x = 0x2545f491;
      for (let i = 0; i < length; i += 1) {
        x ^= x << 13;
        x ^= x >>> 17;
        x ^= x << 5;
        bytes[i] = x & 0xff;
      }
      return bytes;
    }

    const damaged: [string, Buffer][] = [
      ['garbage bytes', garbage(4096)],
      [
        'a truncated write',
        Buffer.from('{\n  "completed_actions": [\n    "a1"\n  ],\n  "contract": {\n    "purpose": "'),
      ],
      ['an empty file', Buffer.alloc(0)],
      ['a JSON list', Buffer.from('[1, 2, 3]\n')],
      ['an object without the ledger keys', Buffer.from('{"hello": "world"}\n')],
    ];
    for (const [what, bytes] of damaged) {
      it(`refuses a ledger holding ${what} (exit 2) and replaces it only with open --force, keeping a copy`, () => {
        const session = 'damaged';
        const path = writeText(ledgerPath(root, session), bytes);
        for (const args of everyCommand(session)) refused(args, 2, new RegExp(`${session}\\.json`));
        assert.deepEqual(readFileSync(path), bytes);

        const forced = runCli([
          'open',
          '--root',
          root,
          '--session',
          session,
          '--contract',
          contract,
          '--force',
          '--json',
        ]);
        assert.equal(forced.code, 0, forced.stderr);
        assert.equal(forced.json.status, 'open');
        assertClearLines(forced, 1); // the note saying where the copy went
        const copies = readdirSync(join(root, '.loop', 'ledgers')).filter((name) =>
          name.startsWith(`${session}.json.corrupt-`),
        );
        assert.equal(copies.length, 1, `copies: ${copies.join(', ')}`);
        assert.match(copies[0] as string, /^damaged\.json\.corrupt-\d{8}T\d{6}Z$/);
        assert.deepEqual(readFileSync(join(root, '.loop', 'ledgers', copies[0] as string)), bytes);
        assert.match(forced.stderr, new RegExp(copies[0] as string));
        assert.equal(readLedger(root, session).iterations.length, 0);
        // Tidy up for the next case: the copies are a user's to delete.
        for (const name of readdirSync(join(root, '.loop', 'ledgers'))) {
          if (name.startsWith(session)) rmSync(join(root, '.loop', 'ledgers', name));
        }
      });
    }

    it('refuses a ledger with schema_version 99 (exit 2) and leaves it untouched, even with --force', () => {
      const session = 'future';
      const live = readLedger(root, 'live');
      const path = writeJson(ledgerPath(root, session), {
        ...live,
        session,
        schema_version: 99,
        moved_keys: { x: 1 },
      });
      const bytes = readFileSync(path);
      const forced = ['open', '--root', root, '--session', session, '--contract', contract, '--force'];
      for (const args of [...everyCommand(session), forced]) refused(args, 2, /schema_version 99/);
      assert.deepEqual(readFileSync(path), bytes);
      rmSync(path);
    });
  });
});
