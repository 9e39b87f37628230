import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { removeDeadWritersTemps, tempWriterPid, writeFileAtomicSync } from '../../../src/store/atomic-write';
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

  it('writes a list of parts (text and bytes) in order, looping over short writes', () => {
    const target = join(tmp(), 'x.json');
    writeFileSync(target, 'old');
    const realWrite = fs.writeSync;
    // A write that takes at most 3 bytes at a time (a full pipe, a signal): every byte must land.
    let calls = 0;
    fs.writeSync = ((fd: number, bytes: Uint8Array, offset: number, length: number) => {
      calls += 1;
      return realWrite(fd, bytes, offset, Math.min(length, 3));
    }) as typeof fs.writeSync;
    try {
      writeFileAtomicSync(target, ['{"a":', Buffer.from('[1,2,"ü"]'), new Uint8Array([0x7d]), '\n']);
    } finally {
      fs.writeSync = realWrite;
    }
    assert.ok(calls >= 6, `the short writes were looped over (${calls} calls)`);
    assert.equal(readFileSync(target, 'utf8'), '{"a":[1,2,"ü"]}\n');
    assert.deepEqual(readdirSync(tmp()), ['x.json']);
  });

  it('keeps the old content when writing a part fails midway', () => {
    const target = join(tmp(), 'x.json');
    writeFileSync(target, 'old');
    const realWrite = fs.writeSync;
    let calls = 0;
    fs.writeSync = ((...args: Parameters<typeof fs.writeSync>) => {
      calls += 1;
      if (calls === 2) throw Object.assign(new Error('ENOSPC: simulated'), { code: 'ENOSPC' });
      return (realWrite as (...a: unknown[]) => number)(...args);
    }) as typeof fs.writeSync;
    try {
      assert.throws(() => writeFileAtomicSync(target, ['first', Buffer.from('second')]), /simulated/);
    } finally {
      fs.writeSync = realWrite;
    }
    assert.equal(readFileSync(target, 'utf8'), 'old');
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

  it('keeps the permission bits of the file it replaces', () => {
    const target = join(tmp(), 'x.json');
    for (const mode of [0o600, 0o640, 0o444, 0o755]) {
      writeFileSync(target, 'old');
      fs.chmodSync(target, mode);
      writeFileAtomicSync(target, 'new');
      assert.equal(fs.statSync(target).mode & 0o7777, mode, mode.toString(8));
      assert.equal(readFileSync(target, 'utf8'), 'new');
      fs.chmodSync(target, 0o644);
      fs.rmSync(target);
    }
  });

  it("reads a temporary name as one target's only, whatever other ids share its prefix", () => {
    assert.equal(tempWriterPid('.a.json.123.4.k3j2.tmp', 'a.json'), 123);
    assert.equal(tempWriterPid('.a.json.123.4..tmp', 'a.json'), 123);
    // The temporary file of session "a.json.999999" is not one of "a"'s.
    assert.equal(tempWriterPid('.a.json.999999.json.123.4.k3j2.tmp', 'a.json'), null);
    assert.equal(tempWriterPid('.a.json.999999.json.123.4.k3j2.tmp', 'a.json.999999.json'), 123);
    assert.equal(tempWriterPid('.a.json.1.2.json.3.4.x.tmp', 'a.json'), null);
    for (const bad of [
      '.a.json.0.1.x.tmp',
      '.a.json.-1.1.x.tmp',
      '.a.json.1.x.tmp',
      '.a.json.1.1.X.tmp',
      '.a.json.tmp',
    ]) {
      assert.equal(tempWriterPid(bad, 'a.json'), null, bad);
    }
  });

  it("sweeps only its own target's temporary files of dead writers", () => {
    const dead = 999_999_999; // above any pid_max: never alive
    const mine = `.a.json.${dead}.1.abc.tmp`;
    const othersDead = `.a.json.${dead}.json.${dead}.1.abc.tmp`;
    const othersLive = `.a.json.999999.json.${process.pid}.1.abc.tmp`;
    for (const name of [mine, othersDead, othersLive]) writeFileSync(join(tmp(), name), 'x');
    assert.deepEqual(removeDeadWritersTemps(join(tmp(), 'a.json')), [mine]);
    assert.deepEqual(readdirSync(tmp()).sort(), [othersDead, othersLive].sort());
  });
});
