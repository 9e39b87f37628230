// The path readers behind the critic brief: diff paths, declared (change-scope) paths and
// the coverage check between them.
import assert from 'node:assert/strict';
import fc from 'fast-check';
import {
  coverageFindings,
  declaredPaths,
  diffPaths,
  scopeCoverage,
  undeclaredPaths,
} from '../../../src/engine/brief';
import { PY_LINE_BREAKS, PY_WHITESPACE, pySplitLines, pyStrip } from '../../../src/engine/python-text';

function stripAB(side: string): string | null {
  if (!side || side === '/dev/null') return null;
  return (side.startsWith('a/') || side.startsWith('b/') ? side.slice(2) : side) || null;
}

const PY_LINE_BREAK_ANY = new RegExp(`[${PY_LINE_BREAKS}]`, 'g');

/** A git diff that modifies, adds, deletes or renames each path. */
function gitDiff(paths: string[]): string {
  return paths
    .map((p, i) => {
      switch (i % 4) {
        case 0:
          return `diff --git a/${p} b/${p}\nindex 83db48f..bf269f4 100644\n--- a/${p}\n+++ b/${p}\n@@ -1,2 +1,2 @@\n context\n-old line\n+new line\n`;
        case 1:
          return `diff --git a/${p} b/${p}\nnew file mode 100644\nindex 0000000..e69de29\n--- /dev/null\n+++ b/${p}\n@@ -0,0 +1 @@\n+hello\n`;
        case 2:
          return `diff --git a/${p} b/${p}\ndeleted file mode 100644\nindex e69de29..0000000\n--- a/${p}\n+++ /dev/null\n@@ -1 +0,0 @@\n-bye\n`;
        default:
          return `diff --git a/${p} b/${p}\nold mode 100644\nnew mode 100755\n`;
      }
    })
    .join('');
}

const segment = fc.stringMatching(/^[A-Za-z0-9_][A-Za-z0-9_.-]{0,8}$/);
const pathArb = fc.array(segment, { minLength: 1, maxLength: 4 }).map((parts) => parts.join('/'));
const pathSet = fc.uniqueArray(pathArb, { minLength: 1, maxLength: 12 });

const HEADER = [
  'commit 4f2a9c1d8e7b6a5f4e3d2c1b0a9f8e7d6c5b4a39',
  'Merge: 1a2b3c4 5d6e7f8',
  'Author: Ada Lovelace <ada@example.com>',
  'AuthorDate: Mon Jan 1 10:00:00 2024 +0000',
  'Commit: Ada Lovelace <ada@example.com>',
  'CommitDate: Mon Jan 1 10:00:00 2024 +0000',
  'Date:   Mon Jan 1 10:00:00 2024 +0000',
  '',
  '    Fix the parser',
  '',
  '    It read docs/notes.md as a path | 3 of them.',
  '    src/not-a-path.ts',
  '',
];

function statTranscript(paths: string[], message: string[]): string {
  const width = Math.max(...paths.map((p) => p.length));
  const lines = paths.map((p, i) => ` ${p.padEnd(width)} | ${i + 1} ${'+'.repeat(i % 5)}`);
  return [
    ...message,
    ...lines,
    ` ${paths.length} file${paths.length === 1 ? '' : 's'} changed, 4 insertions(+)`,
    '',
  ].join('\n');
}

function nameOnlyTranscript(paths: string[], message: string[]): string {
  return [...message, ...paths, ''].join('\n');
}

describe('brief: diffPaths', () => {
  it('reads the first non-/dev/null side of a two-sided diff --git header, without a/ or b/', () => {
    assert.deepEqual(diffPaths('diff --git a/src/x.ts b/src/x.ts\n'), ['src/x.ts']);
    assert.deepEqual(diffPaths('diff --git /dev/null b/new.ts\n'), ['new.ts']);
    assert.deepEqual(diffPaths('diff --git plain/x.ts other/y.ts\n'), ['plain/x.ts']);
  });

  it('ignores a diff --git header without exactly two sides', () => {
    assert.deepEqual(diffPaths('diff --git a/one b/two c/three\n'), []);
    assert.deepEqual(diffPaths('diff --git a/only\n'), []);
  });

  it('reads ---/+++ lines: text before a tab, trimmed, prefix removed, /dev/null skipped', () => {
    const diff = '--- a/lib/old.c\t2024-01-01 10:00:00\n+++ b/lib/new.c  \t(working copy)\n--- /dev/null\n';
    assert.deepEqual(diffPaths(diff), ['lib/new.c', 'lib/old.c']);
  });

  it('reads a plain (non-git) unified diff', () => {
    assert.deepEqual(diffPaths('--- orig/file.txt\n+++ file.txt\n@@ -1 +1 @@\n-a\n+b\n'), [
      'file.txt',
      'orig/file.txt',
    ]);
  });

  it('returns paths sorted and unique, in code-point order', () => {
    const diff = gitDiff(['z.ts', 'a.ts', '\u{1F600}.ts', '\uFF21.ts', 'a.ts']);
    assert.deepEqual(diffPaths(diff), ['a.ts', 'z.ts', '\uFF21.ts', '\u{1F600}.ts']);
  });

  it('only reads lines that begin with a marker, and splits lines as Python does', () => {
    assert.deepEqual(diffPaths(' --- a/indented\nx+++ b/inline\n'), []);
    assert.deepEqual(diffPaths('junk\r+++ b/after-cr\r\n--- a/after-crlf\n'), ['after-cr', 'after-crlf']);
    assert.deepEqual(diffPaths('junk\f+++ b/after-formfeed\u2028--- a/after-ls'), [
      'after-formfeed',
      'after-ls',
    ]);
    assert.deepEqual(diffPaths('+++ b/first-line'), ['first-line']);
  });

  it('reads a hunk line that happens to start with "--- " as a path, as the original does', () => {
    assert.deepEqual(diffPaths(gitDiff(['doc.md']).replace('-old line', '--- horizontal rule')), [
      'doc.md',
      'horizontal rule',
    ]);
  });

  it('a generated git diff over random paths yields exactly those paths', () => {
    fc.assert(
      fc.property(pathSet, (paths) => {
        assert.deepEqual(diffPaths(gitDiff(paths)), [...paths].sort());
      }),
    );
  });

  it('agrees with a line-by-line reading on text mixing markers, mid-line markers and every line break', () => {
    // The reference: split as Python's splitlines() does, then read each line on its own.
    const reference = (text: string): string[] => {
      const found = new Set<string>();
      for (const line of pySplitLines(text)) {
        if (line.startsWith('diff --git ')) {
          const sides = pyStrip(line.slice(11)).split(new RegExp(`[${PY_WHITESPACE}]+`));
          if (sides.length !== 2) continue;
          const side = sides.map(stripAB).find((p) => p !== null);
          if (side) found.add(side);
        } else if (line.startsWith('--- ') || line.startsWith('+++ ')) {
          const path = stripAB(pyStrip(line.slice(4).split('\t')[0] as string));
          if (path) found.add(path);
        }
      }
      return [...found].sort();
    };
    const piece = fc.constantFrom(
      'diff --git ',
      '--- ',
      '+++ ',
      'a/x.ts',
      'b/y.ts',
      ' ',
      '\t',
      '-',
      '+',
      'd',
      'iff',
      '/dev/null',
      '\n',
      '\r',
      '\r\n',
      '\v',
      '\f',
      '\x1c',
      '\x85',
      '\u2028',
      'z',
      'é',
    );
    fc.assert(
      fc.property(fc.array(piece, { maxLength: 40 }), (pieces) => {
        const text = pieces.join('');
        assert.deepEqual(diffPaths(text), reference(text));
      }),
      { numRuns: 2000 },
    );
  });

  it('CRLF line endings give the same paths', () => {
    fc.assert(
      fc.property(pathSet, (paths) => {
        assert.deepEqual(diffPaths(gitDiff(paths).replace(/\n/g, '\r\n')), [...paths].sort());
      }),
    );
  });
});

describe('brief: declaredPaths', () => {
  it('reads --stat lines and drops the header, message body and summary', () => {
    const transcript = statTranscript(['src/a.ts', 'README.md'], HEADER);
    assert.deepEqual(declaredPaths(transcript), ['README.md', 'src/a.ts']);
  });

  it('reads --name-only output, where every remaining line is a path', () => {
    assert.deepEqual(declaredPaths(nameOnlyTranscript(['src/a.ts', 'README.md'], HEADER)), [
      'README.md',
      'src/a.ts',
    ]);
  });

  it('once a stat line is present, reads only stat lines', () => {
    assert.deepEqual(declaredPaths('stray prose line\n src/a.ts | 2 +-\n'), ['src/a.ts']);
  });

  it('recognises binary stat lines and a single-file summary', () => {
    const transcript =
      ' img/logo.png | Bin 0 -> 1234 bytes\n src/x.ts     | 10 ++++++++++\n 2 files changed\n 1 file changed, 1 insertion(+)\n';
    assert.deepEqual(declaredPaths(transcript), ['img/logo.png', 'src/x.ts']);
  });

  it('does not take "Binary" or a bare pipe for a stat column', () => {
    assert.deepEqual(declaredPaths('a | Binary\nb | x\n'), ['a | Binary', 'b | x']);
  });

  it('resolves braced renames to the new name, collapsing the doubled slash', () => {
    assert.deepEqual(declaredPaths(' src/{old => new}/x.ts | 4 ++--\n'), ['src/new/x.ts']);
    assert.deepEqual(declaredPaths(' src/{ => lib}/y.ts | 1 +\n'), ['src/lib/y.ts']);
    assert.deepEqual(declaredPaths(' src/{lib => }/z.ts | 1 +\n'), ['src/z.ts']);
    assert.deepEqual(declaredPaths(' {a => b}/{c => d}.ts | 1 +\n'), ['b/d.ts']);
  });

  it('resolves a plain "a => b" rename to b', () => {
    assert.deepEqual(declaredPaths(' old-name.ts => new-name.ts | 0\n'), ['new-name.ts']);
    assert.deepEqual(declaredPaths('old.txt => new.txt\n'), ['new.txt']);
  });

  it('keeps a .../ abbreviation verbatim', () => {
    assert.deepEqual(declaredPaths(' .../deeply/nested/file.ts | 3 ++-\n'), ['.../deeply/nested/file.ts']);
  });

  it('needs a full commit hash of 7+ lower-case hex digits to treat a line as a header', () => {
    assert.deepEqual(declaredPaths('commit abc12\ncommit abcdef1\nNotes: x\n'), ['commit abc12']);
    assert.deepEqual(declaredPaths('commit abcdef12z\n'), ['commit abcdef12z']);
  });

  it('returns nothing for a transcript of prose only', () => {
    assert.deepEqual(declaredPaths('\n\n    indented body\n   \n 3 files changed, 2 deletions(-)\n'), []);
  });

  it('a --stat and a --name-only transcript of the same paths parse to the same sorted set', () => {
    fc.assert(
      fc.property(pathSet, fc.boolean(), (paths, withHeader) => {
        const message = withHeader ? HEADER : [];
        const expected = [...paths].sort();
        assert.deepEqual(declaredPaths(statTranscript(paths, message)), expected);
        assert.deepEqual(declaredPaths(nameOnlyTranscript(paths, message)), expected);
      }),
    );
  });

  it('commit headers and indented message bodies are ignored whatever they say', () => {
    const body = fc.array(fc.string({ maxLength: 30 }).map((s) => '    ' + s.replace(PY_LINE_BREAK_ANY, '')));
    const hash = fc.stringMatching(/^[0-9a-f]{7,40}$/);
    fc.assert(
      fc.property(pathSet, body, hash, (paths, lines, sha) => {
        const message = [
          `commit ${sha}`,
          'Author: Someone <s@example.com>',
          'Date:   today',
          '',
          ...lines,
          '',
        ];
        assert.deepEqual(declaredPaths(nameOnlyTranscript(paths, message)), [...paths].sort());
      }),
    );
  });
});

describe('brief: coverage', () => {
  it('covers a declared path the diff names exactly', () => {
    assert.deepEqual(coverageFindings(['a.ts', 'b/c.ts'], ['a.ts', 'b/c.ts']), []);
  });

  it('reports every absent path, in declared order', () => {
    const findings = coverageFindings(['x.ts', 'a.ts', 'y.ts'], ['a.ts']);
    assert.equal(findings.length, 2);
    assert.match(findings[0]?.message ?? '', /^x\.ts: /);
    assert.match(findings[1]?.message ?? '', /^y\.ts: /);
    assert.ok(findings.every((f) => f.code === 'scope-absent'));
  });

  it('covers a .../tail by the single diff path equal to the tail or ending in /tail', () => {
    assert.deepEqual(coverageFindings(['.../nested/f.ts'], ['src/deep/nested/f.ts', 'other.ts']), []);
    assert.deepEqual(coverageFindings(['.../f.ts'], ['f.ts']), []);
    assert.deepEqual(undeclaredPaths(['.../nested/f.ts'], ['src/deep/nested/f.ts', 'other.ts']), [
      'other.ts',
    ]);
  });

  it('does not let a .../tail match a longer file name that merely ends in the tail', () => {
    const findings = coverageFindings(['.../f.ts'], ['src/ff.ts']);
    assert.equal(findings[0]?.code, 'scope-absent');
  });

  it('refuses a .../tail that two diff paths match as ambiguous, naming both', () => {
    const findings = coverageFindings(['.../index.ts'], ['b/index.ts', 'a/index.ts', 'c.ts']);
    assert.equal(findings.length, 1);
    assert.equal(findings[0]?.code, 'scope-ambiguous');
    assert.match(findings[0]?.message ?? '', /a\/index\.ts, b\/index\.ts/);
  });

  it('refuses a .../tail that nothing matches as absent', () => {
    assert.equal(coverageFindings(['.../gone.ts'], ['here.ts'])[0]?.code, 'scope-absent');
  });

  it('records undeclared diff paths sorted, and never refuses them', () => {
    const result = scopeCoverage(['b.ts'], ['z.ts', 'b.ts', 'a.ts']);
    assert.deepEqual(result, { findings: [], undeclared: ['a.ts', 'z.ts'] });
  });
});
