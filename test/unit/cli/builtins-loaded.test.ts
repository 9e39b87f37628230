// Which of Node's own modules an everyday command loads. An agent runs one command per step, so
// what a command loads at start is paid on every step: node:crypto (with the stream modules it
// pulls in) costs ~2.5 ms, node:fs/promises ~0.5 ms, against a whole `status` of ~5 ms over a bare
// node start on a quick machine. The modules that need them load them when first used (a
// checkpoint's nonce, a store's request id, an asynchronous read, the seal of a long ledger), so a
// command on a short ledger that takes no checkpoint and uses no store loads none of them. An
// import at the top of any module these commands bundle would bring the cost back unseen: this
// test sees it.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { serializeLedger } from '../../../src/store/ledger-file';
import { DIGEST_MIN_BYTES } from '../../../src/store/records-digest';
import { CLI, childEnv, tempRoot } from '../helpers/cli';
import { sampleLedger } from '../store/fixtures/sample-ledger';
import { loopWith } from './setup';

/** Loaded only when used, never by a command on a 10-iteration ledger in a plain folder. */
const ON_DEMAND = ['crypto', 'stream', 'child_process', 'fs/promises', 'net', 'worker_threads'];

describe('cli: the builtins an everyday command loads', function () {
  this.timeout(120_000);
  const loop = loopWith({ iteration_limit: 100 });
  for (let i = 1; i <= 10; i += 1) {
    const measured = i % 3 === 0 ? ['--measure', 'hard-one=4', '--measure', 'soft-one=60'] : [];
    const r = loop.cli(
      'iterate',
      '--outcome',
      'continue',
      '--action',
      `step-${i}`,
      '--note',
      `n${i}`,
      ...measured,
    );
    if (r.code !== 0) throw new Error(`iterate ${i}: ${r.stderr}`);
  }
  const files = tempRoot('loop-ledger-builtins-');
  const diff = join(files, 'change.diff');
  writeFileSync(diff, 'diff --git a/x.ts b/x.ts\n--- a/x.ts\n+++ b/x.ts\n@@ -1 +1 @@\n-a\n+b\n');
  const verification = join(files, 'verification.txt');
  writeFileSync(verification, 'npm test\n  12 passing\n');
  // Written at the child's exit: every public builtin it loaded (internal ones are Node's own).
  const preload = join(files, 'record-builtins.js');
  writeFileSync(
    preload,
    `process.on('exit', () => require('node:fs').writeFileSync(process.env.BUILTINS_OUT,
      JSON.stringify(process.moduleLoadList.filter((m) => m.startsWith('NativeModule ') && !m.includes('internal/'))
        .map((m) => m.slice('NativeModule '.length)))));`,
  );

  /** The public builtins `loop-ledger …args` loaded, after checking it succeeded. */
  function builtinsOf(args: string[], expected = [0]): string[] {
    const out = join(files, 'loaded.json');
    writeFileSync(out, '[]');
    const r = spawnSync(process.execPath, ['--require', preload, CLI, ...args], {
      env: childEnv({ BUILTINS_OUT: out }),
      encoding: 'utf8',
    });
    assert.ok(expected.includes(r.status as number), `${args[0]} exited ${r.status}: ${r.stderr}`);
    return JSON.parse(readFileSync(out, 'utf8')) as string[];
  }

  const session = ['--root', loop.root, '--session', loop.session];
  const cases: [string, string[]][] = [
    ['status', ['status', ...session, '--json']],
    ['status (human)', ['status', ...session]],
    ['score', ['score', ...session, '--json', '--measure', 'hard-one=0', '--measure', 'soft-one=70']],
    ['resume', ['resume', ...session, '--json']],
    ['brief', ['brief', ...session, '--json', '--diff-file', diff, '--verification-file', verification]],
    ['iterate', ['iterate', ...session, '--json', '--outcome', 'continue', '--action', 'step-11']],
    ['validate', ['validate', '--root', loop.root, loop.contractPath, '--json']],
    ['list', ['list', '--root', loop.root, '--json']],
    ['open', ['open', '--root', loop.root, '--session', 'fresh', '--contract', loop.contractPath, '--json']],
    ['close', ['close', ...session, '--json', '--outcome', 'complete']],
  ];
  for (const [name, args] of cases) {
    it(`${name} loads none of ${ON_DEMAND.join(', ')}`, () => {
      const loaded = builtinsOf(args);
      assert.ok(loaded.includes('fs'), `the record of loaded modules works: ${loaded.join(', ')}`);
      assert.deepEqual(
        loaded.filter((m) => ON_DEMAND.includes(m)),
        [],
        `${name} loaded: ${loaded.join(', ')}`,
      );
    });
  }

  it('status on a long ledger does load node:crypto (its seal): the record sees a builtin loaded on demand', () => {
    const root = tempRoot('loop-ledger-builtins-long-');
    const ledger = sampleLedger('long', Math.ceil(DIGEST_MIN_BYTES / 500));
    ledger.contract.iteration_limit = 100_000;
    mkdirSync(join(root, '.loop', 'ledgers'), { recursive: true });
    writeFileSync(join(root, '.loop', 'ledgers', 'long.json'), serializeLedger(ledger));
    const loaded = builtinsOf(['status', '--root', root, '--session', 'long', '--json']);
    assert.ok(loaded.includes('crypto'), `loaded: ${loaded.join(', ')}`);
  });
});
