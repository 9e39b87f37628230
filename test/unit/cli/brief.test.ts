import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ledgerPath, readLedger, writeText } from '../helpers/cli';
import { loopWith, type Loop } from './setup';

const DIFF = `diff --git a/src/app.ts b/src/app.ts
--- a/src/app.ts
+++ b/src/app.ts
@@ -1 +1 @@
-old
+new
diff --git a/docs/guide.md b/docs/guide.md
--- a/docs/guide.md
+++ b/docs/guide.md
@@ -1 +1 @@
-a
+b
`;

function files(loop: Loop, diff = DIFF, verification = 'all 12 tests passed\n') {
  return {
    diff: writeText(join(loop.root, 'change.diff'), diff),
    verification: writeText(join(loop.root, 'verify.txt'), verification),
  };
}

function briefArgs(f: { diff: string; verification: string }, ...extra: string[]) {
  return ['--diff-file', f.diff, '--verification-file', f.verification, '--json', ...extra];
}

describe('cli: brief', () => {
  it('prints the eight-key packet and arms it as the pending brief', () => {
    const loop = loopWith();
    const r = loop.cli('brief', ...briefArgs(files(loop)));
    assert.equal(r.code, 0, r.stderr);
    assert.deepEqual(Object.keys(r.json), [
      'asks',
      'baseline',
      'brief_id',
      'diff',
      'rubric',
      'scope',
      'verdicts',
      'verification',
    ]);
    assert.match(r.json.brief_id, /^[0-9a-f]{16}$/);
    assert.deepEqual(r.json.verdicts, ['PASS', 'FAIL', 'REVISE', 'REVERT', 'ESCALATE']);
    assert.equal(r.json.asks.length, 6);
    assert.deepEqual(r.json.scope, {
      declared_paths: null,
      diff_paths: ['docs/guide.md', 'src/app.ts'],
      provenance: 'unverified',
      undeclared_paths: [],
    });
    assert.deepEqual(readLedger(loop.root, loop.session).pending_brief, { brief_id: r.json.brief_id });
  });

  it('the same packet gives the same id; a changed diff or a declared scope changes it; stat and name-only agree', () => {
    const loop = loopWith();
    const f = files(loop);
    const a = loop.cli('brief', ...briefArgs(f)).json.brief_id;
    assert.equal(loop.cli('brief', ...briefArgs(f)).json.brief_id, a);
    const changed = files(loop, DIFF.replace('+new', '+newer'));
    assert.notEqual(loop.cli('brief', ...briefArgs(changed)).json.brief_id, a);
    const stat = writeText(
      join(loop.root, 'stat.txt'),
      ' src/app.ts    | 2 +-\n docs/guide.md | 2 +-\n 2 files changed, 2 insertions(+), 2 deletions(-)\n',
    );
    const names = writeText(join(loop.root, 'names.txt'), 'src/app.ts\ndocs/guide.md\n');
    const s1 = loop.cli('brief', ...briefArgs(f, '--change-scope', stat));
    const s2 = loop.cli('brief', ...briefArgs(f, '--change-scope', names));
    assert.equal(s1.code, 0, s1.stderr);
    assert.equal(s1.json.scope.provenance, 'verified');
    assert.notEqual(s1.json.brief_id, a);
    assert.equal(s1.json.brief_id, s2.json.brief_id);
  });

  it('exit 8 for an unreadable or whitespace-only input (first failure only); exit 9 for an uncovered scope; a refused brief arms nothing', () => {
    const loop = loopWith();
    const f = files(loop);
    const armed = loop.cli('brief', ...briefArgs(f)).json.brief_id;
    const before = readFileSync(ledgerPath(loop.root, loop.session), 'utf8');
    const blank = writeText(join(loop.root, 'blank.txt'), ' \n\n');
    const cases: [string[], number, RegExp][] = [
      [['--diff-file', join(loop.root, 'missing.diff'), '--verification-file', blank], 8, /--diff-file/],
      [['--diff-file', blank, '--verification-file', f.verification], 8, /--diff-file/],
      [['--diff-file', f.diff, '--verification-file', blank], 8, /--verification-file/],
      [
        ['--diff-file', f.diff, '--verification-file', f.verification, '--change-scope', blank],
        8,
        /--change-scope/,
      ],
      [
        [
          '--diff-file',
          f.diff,
          '--verification-file',
          f.verification,
          '--change-scope',
          writeText(join(loop.root, 'hdr.txt'), 'commit abcdef1234\nAuthor: x\n'),
        ],
        9,
        /./,
      ],
      [
        [
          '--diff-file',
          f.diff,
          '--verification-file',
          f.verification,
          '--change-scope',
          writeText(join(loop.root, 'more.txt'), 'src/app.ts\nsrc/other.ts\n'),
        ],
        9,
        /src\/other\.ts/,
      ],
    ];
    for (const [args, code, pattern] of cases) {
      const r = loop.cli('brief', ...args);
      assert.equal(r.code, code, `${args.join(' ')}: ${r.stderr}`);
      assert.equal(r.stdout, '');
      assert.match(r.stderr, pattern);
      assert.equal(readFileSync(ledgerPath(loop.root, loop.session), 'utf8'), before);
    }
    assert.deepEqual(readLedger(loop.root, loop.session).pending_brief, { brief_id: armed });
  });

  it('.../ abbreviations: covered by a single match, ambiguous with two', () => {
    const loop = loopWith();
    const f = files(loop, DIFF + DIFF.replace(/src\/app\.ts/g, 'lib/app.ts'));
    const ok = loop.cli(
      'brief',
      ...briefArgs(f, '--change-scope', writeText(join(loop.root, 's1.txt'), ' .../guide.md | 2 +-\n')),
    );
    assert.equal(ok.code, 0, ok.stderr);
    const amb = loop.cli(
      'brief',
      ...briefArgs(f, '--change-scope', writeText(join(loop.root, 's2.txt'), ' .../app.ts | 2 +-\n')),
    );
    assert.equal(amb.code, 9);
    assert.match(amb.stderr, /ambiguous/);
  });

  it('a verdict spends the brief; a second use is refused as "no brief pending"; a brief id alone spends nothing', () => {
    const loop = loopWith();
    const id = loop.cli('brief', ...briefArgs(files(loop))).json.brief_id;
    const onlyId = loop.cli('iterate', '--outcome', 'continue', '--critic-brief', id);
    assert.equal(onlyId.code, 0);
    assert.deepEqual(readLedger(loop.root, loop.session).pending_brief, { brief_id: id });
    const verdict = [
      '--outcome',
      'continue',
      '--critic-verdict',
      'PASS',
      '--critic-next',
      'measure the suite',
      '--evidence-path',
      'ci.log',
      '--critic-brief',
      id,
      '--json',
    ];
    const wrong = loop.cli('iterate', ...verdict.map((v) => (v === id ? 'ffffffffffffffff' : v)));
    assert.equal(wrong.code, 1);
    assert.match(wrong.stderr, /does not match/);
    const r = loop.cli('iterate', ...verdict);
    assert.equal(r.code, 0, r.stderr);
    assert.equal(r.json.critic_verdict, 'PASS');
    assert.equal(r.json.critic_brief, id);
    assert.equal(readLedger(loop.root, loop.session).pending_brief, null);
    const again = loop.cli('iterate', ...verdict);
    assert.equal(again.code, 1);
    assert.match(again.stderr, /no brief pending/);
  });

  it('works on a closed ledger; a re-open clears the pending brief', () => {
    const loop = loopWith();
    loop.cli('close', '--outcome', 'revise');
    const r = loop.cli('brief', ...briefArgs(files(loop)));
    assert.equal(r.code, 0, r.stderr);
    loop.cli('open', '--contract', loop.contractPath);
    assert.equal(readLedger(loop.root, loop.session).pending_brief, null);
  });
});
