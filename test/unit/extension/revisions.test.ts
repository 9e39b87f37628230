import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { rangeProblem } from '../../../src/drivers/git/changes';
import { gitArgv, runGit } from '../../../src/drivers/git/git';
import {
  checkRevisionQuery,
  repoPathProblem,
  revisionProblem,
  showFileArgs,
} from '../../../src/drivers/git/revisions';
import { tempRoot } from '../helpers/cli';

describe('brief: revisions and paths from outside reach git only as revisions', () => {
  it('accepts hashes, ref names and ref arithmetic', () => {
    for (const rev of ['HEAD', 'HEAD~1', 'HEAD^', 'main', 'feature/x-1', 'v1.2.3', 'a1b2c3d', 'HEAD@{1}'])
      assert.equal(revisionProblem(rev), undefined, rev);
  });

  it('refuses options, ranges, paths and empty text', () => {
    for (const rev of ['--output=/tmp/x', '-p', '', 'a..b', 'HEAD:src/x', ' HEAD', 'a b', '.hidden', 'x\n'])
      assert.ok(revisionProblem(rev), JSON.stringify(rev));
    assert.ok(rangeProblem('--output=/tmp/x..HEAD'));
    assert.ok(rangeProblem('HEAD..--output=x'));
    assert.equal(rangeProblem('main..HEAD'), undefined);
  });

  it('refuses absolute paths and paths that climb out of the repository', () => {
    for (const path of ['/etc/passwd', '../x', 'a/../../x', 'C:/x', 'a\0b', ''])
      assert.ok(repoPathProblem(path), JSON.stringify(path));
    assert.equal(repoPathProblem('src/x.txt'), undefined);
  });

  it('a document query must name a workspace folder, a revision and a path', () => {
    const roots = ['/work/repo'];
    const q = (value: unknown) => checkRevisionQuery(JSON.stringify(value), roots);
    assert.deepEqual(q({ root: '/work/repo', rev: 'HEAD', path: 'src/x.txt' }), {
      root: '/work/repo',
      rev: 'HEAD',
      path: 'src/x.txt',
    });
    assert.equal('refused' in q({ root: '/work/repo', rev: ':index', path: 'x' }), false);
    assert.match(
      (q({ root: '/elsewhere', rev: 'HEAD', path: 'x' }) as { refused: string }).refused,
      /not a folder/,
    );
    assert.ok('refused' in q({ root: '/work/repo', rev: '--output=/tmp/x', path: 'src/x.txt' }));
    assert.ok('refused' in q({ root: '/work/repo', rev: 'HEAD', path: '../../etc/passwd' }));
    assert.ok('refused' in q({ root: '/work/repo', rev: 1, path: 'x' }));
    assert.ok('refused' in checkRevisionQuery('not json', roots));
  });

  it('puts --end-of-options before the revision, so even an option-like one writes no file', async () => {
    assert.deepEqual(showFileArgs('HEAD', 'src/x.txt').slice(-2), ['--end-of-options', 'HEAD:src/x.txt']);
    const root = tempRoot('loop-ledger-eoo-');
    await runGit(root, ['init', '-q']);
    const target = join(root, 'written');
    await assert.rejects(runGit(root, showFileArgs(`--output=${target}`, 'x')));
    assert.equal(existsSync(target), false);
  });

  it('pins the config that changes porcelain output on every call', () => {
    const argv = gitArgv(['diff']);
    for (const pin of [
      'diff.mnemonicPrefix=false',
      'diff.noprefix=false',
      'color.ui=false',
      'log.showSignature=false',
    ])
      assert.ok(argv.includes(pin), pin);
    assert.equal(argv[argv.length - 1], 'diff');
  });
});
