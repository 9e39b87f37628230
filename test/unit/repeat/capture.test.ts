import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdirSync, readFileSync, rmSync, symlinkSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { captureFs } from '../../../src/drivers/repeat/capture-fs';
import { captureGit, EMPTY_TREE } from '../../../src/drivers/repeat/capture-git';
import { ALWAYS_EXCLUDED } from '../../../src/drivers/repeat/exclusions';
import { gitPathspecs } from '../../../src/drivers/repeat/glob';
import { tempRoot } from '../helpers/cli';

function write(root: string, rel: string, text: string): void {
  mkdirSync(join(root, rel, '..'), { recursive: true });
  writeFileSync(join(root, rel), text);
}

describe('repeat: state capture (drivers)', () => {
  it('fs: content only — a same-size rewrite is seen even with its mtime put back', async () => {
    const root = tempRoot();
    write(root, 'a.txt', 'alpha');
    const old = new Date(Date.now() - 3600_000);
    utimesSync(join(root, 'a.txt'), old, old);
    const first = await captureFs({ root, scope: [], exclude: [] });
    assert.equal(
      (await captureFs({ root, scope: [], exclude: [] })).key,
      first.key,
      'a second capture agrees',
    );
    writeFileSync(join(root, 'a.txt'), 'omega'); // same size
    utimesSync(join(root, 'a.txt'), old, old); // and the same mtime: only ctime and content differ
    const second = await captureFs({ root, scope: [], exclude: [] });
    assert.notEqual(second.key, first.key);
    // touching without changing content is no change at all
    utimesSync(join(root, 'a.txt'), new Date(), new Date());
    assert.equal((await captureFs({ root, scope: [], exclude: [] })).key, second.key);
  });

  it('fs: a file rewritten at once with the same size is seen (recent files are always read)', async () => {
    const root = tempRoot();
    write(root, 'b.txt', '1111');
    const first = await captureFs({ root, scope: [], exclude: [] });
    writeFileSync(join(root, 'b.txt'), '2222');
    assert.notEqual((await captureFs({ root, scope: [], exclude: [] })).key, first.key);
  });

  it('fs: .loop, .ai-cache, IDE and build folders are never part of the state; --scope drops the build defaults', async () => {
    const root = tempRoot();
    write(root, 'src/a.ts', 'x');
    const base = await captureFs({ root, scope: [], exclude: [] });
    for (const rel of [
      '.loop/ledgers/s.json',
      '.ai-cache/x',
      '.vscode/settings.json',
      'node_modules/p/index.js',
      'dist/a.js',
      '.git/HEAD',
    ])
      write(root, rel, 'noise');
    assert.equal((await captureFs({ root, scope: [], exclude: [] })).key, base.key);
    const scoped = await captureFs({ root, scope: ['**'], exclude: [] });
    assert.ok(scoped.files.has('dist/a.js'), 'an explicit scope includes build output');
    assert.ok(!scoped.files.has('.loop/ledgers/s.json') && !scoped.files.has('.git/HEAD'));
  });

  it('git: the tuple sees commits, staging, edits and new files; .loop never', async () => {
    const root = tempRoot();
    const git = (...args: string[]) =>
      execFileSync('git', ['-C', root, '-c', 'user.name=t', '-c', 'user.email=t@e', ...args], {
        stdio: 'ignore',
      });
    git('init', '-q');
    const empty = await captureGit({ root, scope: [], exclude: [] });
    assert.match(empty.key, /^git:-:/);
    write(root, 'a.txt', 'one');
    const untracked = await captureGit({ root, scope: [], exclude: [] });
    assert.notEqual(untracked.key, empty.key);
    git('add', 'a.txt');
    const staged = await captureGit({ root, scope: [], exclude: [] });
    assert.notEqual(staged.key, untracked.key);
    git('commit', '-q', '-m', 'one');
    const committed = await captureGit({ root, scope: [], exclude: [] });
    assert.notEqual(committed.key, staged.key);
    assert.ok(committed.head && committed.head.length === 40);
    write(root, '.loop/ledgers/s.json', '{}');
    write(root, '.ai-cache/state.md', 'x');
    assert.equal((await captureGit({ root, scope: [], exclude: [] })).key, committed.key);
    write(root, 'a.txt', 'two');
    const edited = await captureGit({ root, scope: [], exclude: [] });
    assert.notEqual(edited.key, committed.key);
    write(root, 'a.txt', 'three'); // a dirty file edited again: the diff hash moves
    assert.notEqual((await captureGit({ root, scope: [], exclude: [] })).key, edited.key);
  });

  // The keys, recomputed here with other tools from the original repeat tool's state-capture
  // recipes: a faster capture must still capture exactly this.
  const sha = (data: string | Buffer) => createHash('sha256').update(data).digest('hex');

  it('fs: the key is sha256 over the path-sorted "path NUL content-sha256" lines, cold and warm', async () => {
    const root = tempRoot();
    write(root, 'b/z.md', 'two words');
    write(root, 'a.txt', 'alpha');
    write(root, 'big.bin', 'x'.repeat(200_000)); // larger than the shared read buffer
    symlinkSync('a.txt', join(root, 'link-to-a'));
    symlinkSync('b', join(root, 'link-to-b'));
    const old = new Date(Date.now() - 3600_000);
    for (const rel of ['b/z.md', 'a.txt', 'big.bin']) utimesSync(join(root, rel), old, old);
    const expected = [
      ['a.txt', sha('alpha')],
      ['b/z.md', sha('two words')],
      ['big.bin', sha('x'.repeat(200_000))],
      ['link-to-a', sha('alpha')],
      ['link-to-b', 'link:b'],
    ];
    const key = `fs:${sha(expected.map(([p, h]) => `${p}\0${h}\n`).join(''))}`;
    const cold = await captureFs({ root, scope: [], exclude: [] });
    assert.equal(cold.key, key);
    assert.equal(cold.words.get('b/z.md'), 2);
    const warm = await captureFs({ root, scope: [], exclude: [] });
    assert.equal(warm.key, key, 'the reused hashes give the same key');
    assert.equal(warm.words.get('b/z.md'), 2);
  });

  it('git: the key is (HEAD, sha256 of status v1 -z, sha256 of diff HEAD, untracked contents) in every state', async () => {
    const root = tempRoot();
    const git = (...args: string[]) =>
      execFileSync('git', [
        '-C',
        root,
        '-c',
        'user.name=t',
        '-c',
        'user.email=t@e',
        '-c',
        'core.quotepath=off',
        ...args,
      ]);
    /** The key by the formula, with the whole-scope diff and ls-files the capture no longer runs. */
    const expected = (scope: string[] = []) => {
      const specs = ['--', ...gitPathspecs(scope, [], ALWAYS_EXCLUDED)];
      let head = '';
      try {
        head = git('rev-parse', '--verify', '-q', 'HEAD').toString().trim();
      } catch {
        // no commit yet
      }
      const status = git('status', '--porcelain=v1', '-z', '--untracked-files=all', ...specs);
      const diff = git('diff', '--no-ext-diff', '--no-textconv', '--binary', head || EMPTY_TREE, ...specs);
      const untracked = git('ls-files', '--others', '--exclude-standard', '-z', ...specs)
        .toString()
        .split('\0')
        .filter((p) => p !== '')
        .sort();
      const digest = sha(untracked.map((p) => `${p}\0${sha(readFileSync(join(root, p)))}\n`).join(''));
      return {
        key: `git:${head || '-'}:${sha(status)}:${sha(diff)}:${digest}`,
        diff: diff.length,
        untracked,
      };
    };
    const check = async (what: string, scope: string[] = []) => {
      const want = expected(scope);
      assert.equal((await captureGit({ root, scope, exclude: [] })).key, want.key, what);
      return want;
    };
    git('init', '-q');
    await check('no commit, nothing');
    write(root, 'a.txt', 'one');
    write(root, 'odd name ü.txt', 'spaces and unicode');
    git('add', 'a.txt');
    assert.ok((await check('no commit, one staged, one untracked')).diff > 0);
    git('add', '-A');
    git('commit', '-q', '-m', 'one');
    assert.equal((await check('clean')).diff, 0);
    write(root, 'a.txt', 'two');
    write(root, 'new/b.txt', 'bee');
    write(root, '.gitignore', 'ignored.txt\n');
    write(root, 'ignored.txt', 'not part of it');
    const mixed = await check('edited, untracked, ignored');
    assert.deepEqual(mixed.untracked, ['.gitignore', 'new/b.txt']);
    git('mv', 'odd name ü.txt', 'renamed ü.txt');
    await check('a staged rename');
    git('add', 'a.txt');
    write(root, 'a.txt', 'one'); // staged, then put back in the work tree
    await check('staged then reverted');
    git('rm', '-q', '--cached', 'renamed ü.txt');
    rmSync(join(root, 'renamed ü.txt'));
    await check('deleted');
    await check('a scope', ['new']);
    // Changed paths too long for one command line: the whole-scope diff, the same key.
    const long = 'x'.repeat(180);
    for (let i = 0; i < 400; i++) write(root, `many/${long}-${i}.txt`, `${i}`);
    git('add', '-A');
    assert.ok((await check('400 long staged paths')).diff > 64 * 1024);
  });
});
