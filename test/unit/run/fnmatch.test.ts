import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import fc from 'fast-check';
import { disallowedFiles, fnmatch, fnmatchRegExp } from '../../../src/engine/run/fnmatch';

// 2,340 (pattern, path, expected) triples computed by CPython 3.11's fnmatch.fnmatch (the original
// harness's matcher): star across `/`, classes, negation, empty ranges, unclosed `[`, regex
// metacharacters, non-ASCII and newlines.
const TABLE = JSON.parse(
  readFileSync(resolve(__dirname, '../../../../test/fixtures/run/fnmatch-cpython.json'), 'utf8'),
) as [string, string, boolean][];

describe('run: fnmatch globs (Python semantics)', () => {
  it('agrees with CPython on every case of the table', () => {
    // The table is raw fnmatch.fnmatch; fnmatch() below also reads `\\` as `/`, as the harness does.
    const wrong = TABLE.filter(([pattern, path, expected]) => fnmatchRegExp(pattern).test(path) !== expected);
    assert.deepEqual(wrong, []);
    assert.ok(TABLE.length > 2000);
  });

  it('`*` crosses `/`, and `**` is just two stars', () => {
    assert.equal(fnmatch('src/a/b/c.py', 'src/*'), true);
    assert.equal(fnmatch('src/a/b/c.py', 'src/**'), true);
    assert.equal(fnmatch('src/a/b/c.py', '*.py'), true);
    assert.equal(fnmatch('Src/a.py', 'src/*'), false, 'case-sensitive');
    assert.equal(fnmatch('src\\a.py', 'src/*'), true, 'backslashes read as slashes');
  });

  const segment = fc.stringMatching(/^[A-Za-z0-9._-]{1,8}$/);
  const path = fc.array(segment, { minLength: 1, maxLength: 5 }).map((s) => s.join('/'));

  it('property: a path matches itself when it has no glob characters', () => {
    fc.assert(fc.property(path, (p) => fnmatch(p, p)));
  });

  it('property: `<prefix>*` matches every path under the prefix, at any depth', () => {
    fc.assert(fc.property(path, path, (prefix, rest) => fnmatch(`${prefix}/${rest}`, `${prefix}/*`)));
  });

  it('property: `?` matches exactly one character', () => {
    fc.assert(
      fc.property(path, (p) => {
        const pattern = '?'.repeat(Array.from(p).length);
        return (
          fnmatch(p, pattern) && !fnmatch(p + 'x', pattern) && (p.length < 2 || !fnmatch(p.slice(1), pattern))
        );
      }),
    );
  });

  it('property: `[!c]` is the complement of `[c]` on one character', () => {
    const ch = fc.stringMatching(/^[a-z0-9]$/);
    fc.assert(fc.property(ch, ch, (c, x) => fnmatch(x, `[${c}]`) !== fnmatch(x, `[!${c}]`)));
  });

  it('property: any string is a valid pattern (no throw) and matches are whole-string', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 12 }), path, (pattern, p) => {
        const m = fnmatch(p, pattern);
        return typeof m === 'boolean' && (!m || fnmatch(p, pattern + '*'));
      }),
    );
  });

  it('disallowedFiles keeps the order of the paths outside every glob', () => {
    assert.deepEqual(disallowedFiles(['b.txt', 'src/x', 'a.txt'], ['src/**']), ['b.txt', 'a.txt']);
  });
});
