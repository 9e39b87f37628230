import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdirSync, readFileSync, symlinkSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { captureFs } from '../../../src/drivers/repeat/capture-fs';
import { captureGit } from '../../../src/drivers/repeat/capture-git';
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

  // The keys, recomputed here from the reference's §2 formulas with other tools: a faster capture
  // must still capture exactly this.
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

  it("git: the key is (HEAD, sha256 of status v1 -z, sha256 of diff HEAD, the untracked files' contents)", async () => {
    const root = tempRoot();
    const git = (...args: string[]) =>
      execFileSync('git', ['-C', root, '-c', 'user.name=t', '-c', 'user.email=t@e', ...args]);
    git('init', '-q');
    write(root, 'a.txt', 'one');
    git('add', '-A');
    git('commit', '-q', '-m', 'one');
    write(root, 'a.txt', 'two');
    write(root, 'new/b.txt', 'bee');
    write(root, 'c.txt', 'sea');
    write(root, '.gitignore', 'ignored.txt\n');
    write(root, 'ignored.txt', 'not part of it');
    const specs = ['--', ...gitPathspecs([], [], ALWAYS_EXCLUDED)];
    const head = git('rev-parse', 'HEAD').toString().trim();
    const status = git(
      '-c',
      'core.quotepath=off',
      'status',
      '--porcelain=v1',
      '-z',
      '--untracked-files=all',
      ...specs,
    );
    const diff = git('diff', '--no-ext-diff', '--no-textconv', '--binary', head, ...specs);
    const untracked = git('ls-files', '--others', '--exclude-standard', '-z', ...specs)
      .toString()
      .split('\0')
      .filter((p) => p !== '')
      .sort();
    assert.deepEqual(untracked, ['.gitignore', 'c.txt', 'new/b.txt']);
    const digest = sha(untracked.map((p) => `${p}\0${sha(readFileSync(join(root, p)))}\n`).join(''));
    const captured = await captureGit({ root, scope: [], exclude: [] });
    assert.equal(captured.key, `git:${head}:${sha(status)}:${sha(diff)}:${digest}`);
  });
});
