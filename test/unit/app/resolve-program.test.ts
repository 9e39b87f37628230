import assert from 'node:assert/strict';
import { programResolver, type ResolverSystem } from '../../../src/app/contract/resolve-program';

/** A file system of the named files; `executable` marks which have the POSIX execute bit. */
function system(
  platform: NodeJS.Platform,
  pathVariable: string,
  files: string[],
  opts: { pathExt?: string; executable?: string[] } = {},
): ResolverSystem {
  const present = new Set(platform === 'win32' ? files.map((f) => f.toLowerCase()) : files);
  const has = (p: string) => present.has(platform === 'win32' ? p.toLowerCase() : p);
  return {
    platform,
    pathVariable,
    pathExt: opts.pathExt,
    isFile: has,
    isExecutable: (p) => has(p) && (opts.executable ?? files).includes(p),
  };
}

describe('evidence programs: resolution by the rules of `which`', () => {
  describe('on Windows (injected)', () => {
    const files = [
      'C:\\Program Files\\Git\\cmd\\git.exe',
      'C:\\Program Files\\nodejs\\node.exe',
      'C:\\Program Files\\nodejs\\npm.cmd',
      'C:\\work\\scripts\\check.bat',
      'C:\\tools\\probe.exe',
    ];
    const PATH = 'C:\\Windows\\system32;"C:\\Program Files\\Git\\cmd";C:\\Program Files\\nodejs';
    const resolve = programResolver('C:\\work', system('win32', PATH, files));

    it('finds git, node and npm through PATHEXT, in quoted PATH entries too', () => {
      for (const word of ['git', 'node', 'npm', 'git.exe', 'GIT', 'npm.CMD'])
        assert.equal(resolve(word), true, word);
    });

    it('treats \\ as a separator and drive letters as absolute', () => {
      assert.equal(resolve('scripts\\check'), true);
      assert.equal(resolve('scripts\\check.bat'), true);
      assert.equal(resolve('scripts/check.bat'), true);
      assert.equal(resolve('C:\\tools\\probe.exe'), true);
      assert.equal(resolve('C:\\tools\\probe'), true);
      assert.equal(resolve('C:\\tools\\missing.exe'), false);
    });

    it('does not find what is not there, nor an extension PATHEXT does not list', () => {
      assert.equal(resolve('python'), false);
      const narrow = programResolver('C:\\work', system('win32', PATH, files, { pathExt: '.EXE' }));
      assert.equal(narrow('npm'), false);
      assert.equal(narrow('git'), true);
    });
  });

  describe('on POSIX (injected)', () => {
    const files = ['/usr/bin/git', '/usr/bin/notes.txt', '/work/scripts/check.sh'];
    const resolve = programResolver(
      '/work',
      system('linux', '/usr/local/bin:/usr/bin', files, { executable: ['/usr/bin/git'] }),
    );

    it('needs the execute bit on PATH, takes `\\` as part of a name, resolves paths under the root', () => {
      assert.equal(resolve('git'), true);
      assert.equal(resolve('notes.txt'), false, 'not executable');
      assert.equal(resolve('git.exe'), false);
      assert.equal(resolve('scripts/check.sh'), true);
      assert.equal(resolve('scripts\\check.sh'), false);
      assert.equal(resolve('/usr/bin/git'), true);
    });
  });
});
