import assert from 'node:assert/strict';
import { gitPathspecs, pathFilter } from '../../../src/drivers/repeat/glob';

describe('repeat: --scope / --exclude globs', () => {
  const cases: [string, string, boolean][] = [
    ['src', 'src/a.ts', true], // a folder covers its contents
    ['src', 'lib/src/a.ts', true], // no "/" → any depth
    ['/src', 'lib/src/a.ts', false], // a leading "/" anchors at the root
    ['src/*.ts', 'src/a.ts', true],
    ['src/*.ts', 'src/deep/a.ts', false], // * stays inside one segment
    ['src/**/*.ts', 'src/deep/er/a.ts', true],
    ['src/**/*.ts', 'src/a.ts', true],
    ['*.log', 'tmp/x.log', true],
    ['*.log', 'tmp/x.logs', false],
    ['file-?.md', 'docs/file-1.md', true],
    ['file-[0-3].md', 'file-4.md', false],
    ['a.b', 'axb', false], // dots are literal
  ];
  for (const [glob, path, expected] of cases) {
    it(`${glob} ${expected ? 'matches' : 'does not match'} ${path}`, () => {
      assert.equal(pathFilter([glob], [])(path), expected);
    });
  }

  it('exclude wins over scope; no scope means everything', () => {
    const filter = pathFilter(['src'], ['*.snap']);
    assert.equal(filter('src/a.ts'), true);
    assert.equal(filter('src/a.snap'), false);
    assert.equal(filter('docs/a.md'), false);
    assert.equal(pathFilter([], [])('anything/at/all'), true);
  });

  it('the same globs as git pathspecs, with our own folders always excluded', () => {
    assert.deepEqual(gitPathspecs([], [], ['.loop']), [
      '.',
      ':(exclude,glob)**/.loop',
      ':(exclude,glob)**/.loop/**',
    ]);
    assert.deepEqual(gitPathspecs(['src/*.ts'], ['*.log'], []), [
      ':(glob)src/*.ts',
      ':(glob)src/*.ts/**',
      ':(exclude,glob)**/*.log',
      ':(exclude,glob)**/*.log/**',
    ]);
  });
});
