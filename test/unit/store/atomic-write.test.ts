import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { writeFileAtomicSync } from '../../../src/store/atomic-write';
import { useTempDir } from './fixtures/temp-dir';

// The bundled store calls fs functions through the shared `node:fs` module object, so a test
// can make one of them fail by replacing it there.
// eslint-disable-next-line @typescript-eslint/no-require-imports
const fs = require('node:fs') as typeof import('node:fs');

describe('store: atomic write', () => {
  const tmp = useTempDir();

  it('creates the folder and the file', () => {
    const target = join(tmp(), 'a', 'b', 'x.json');
    writeFileAtomicSync(target, 'héllo\n');
    assert.equal(readFileSync(target, 'utf8'), 'héllo\n');
    assert.deepEqual(readdirSync(join(tmp(), 'a', 'b')), ['x.json']);
  });

  it('replaces the target and leaves no temporary file', () => {
    const target = join(tmp(), 'x.json');
    writeFileSync(target, 'old');
    for (let i = 0; i < 20; i += 1) writeFileAtomicSync(target, `new ${i}`);
    assert.equal(readFileSync(target, 'utf8'), 'new 19');
    assert.deepEqual(readdirSync(tmp()), ['x.json']);
  });

  it('keeps the old content and removes the temporary file when a step fails', () => {
    const target = join(tmp(), 'x.json');
    writeFileSync(target, 'old');
    const realFsync = fs.fsyncSync;
    fs.fsyncSync = () => {
      throw Object.assign(new Error('EIO: simulated'), { code: 'EIO' });
    };
    try {
      assert.throws(() => writeFileAtomicSync(target, 'new'), /simulated/);
    } finally {
      fs.fsyncSync = realFsync;
    }
    assert.equal(readFileSync(target, 'utf8'), 'old');
    assert.deepEqual(readdirSync(tmp()), ['x.json']);
  });

  it('keeps the old content when the rename fails', () => {
    const target = join(tmp(), 'x.json');
    writeFileSync(target, 'old');
    const realRename = fs.renameSync;
    fs.renameSync = () => {
      throw Object.assign(new Error('EXDEV: simulated'), { code: 'EXDEV' });
    };
    try {
      assert.throws(() => writeFileAtomicSync(target, 'new'), /simulated/);
    } finally {
      fs.renameSync = realRename;
    }
    assert.equal(readFileSync(target, 'utf8'), 'old');
    assert.deepEqual(readdirSync(tmp()), ['x.json']);
  });

  it('fails cleanly when the target is a folder', () => {
    const target = join(tmp(), 'dir.json');
    fs.mkdirSync(join(target, 'inner'), { recursive: true });
    assert.throws(() => writeFileAtomicSync(target, 'x'));
    assert.ok(existsSync(join(target, 'inner')));
    assert.deepEqual(readdirSync(tmp()), ['dir.json']);
  });
});
