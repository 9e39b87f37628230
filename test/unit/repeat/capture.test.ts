import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdirSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { captureFs } from '../../../src/drivers/repeat/capture-fs';
import { captureGit } from '../../../src/drivers/repeat/capture-git';
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
});
