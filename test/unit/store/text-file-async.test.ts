// The capped asynchronous text reader (contracts peeked by Open Loop, kept brief packets) and the
// asynchronous atomic write the brief panel keeps its packet with: the reader refuses what the
// ledger reader refuses (a symlink, a FIFO, a folder, a file over the cap, bytes that are not
// UTF-8) without waiting or throwing; the write replaces a file whole and leaves no temporary.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import {
  chmodSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { join } from 'node:path';
import { writeFileAtomic } from '../../../src/store/atomic-write';
import { readTextFileAsync } from '../../../src/store/read-async';
import { tempRoot } from '../helpers/cli';

describe('store: readTextFileAsync and writeFileAtomic', () => {
  it('reads a UTF-8 file (without its BOM) and says absent for a missing one', async () => {
    const root = tempRoot();
    writeFileSync(join(root, 'c.json'), '\ufeff{"purpose": "é"}');
    assert.deepEqual(await readTextFileAsync(join(root, 'c.json'), 1024), {
      kind: 'ok',
      text: '{"purpose": "é"}',
    });
    assert.deepEqual(await readTextFileAsync(join(root, 'none.json'), 1024), { kind: 'absent' });
  });

  it('refuses a symlink, a FIFO (without waiting), a folder, a file over the cap and invalid UTF-8', async () => {
    const root = tempRoot();
    writeFileSync(join(root, 'real.json'), '{}');
    symlinkSync(join(root, 'real.json'), join(root, 'link.json'));
    execFileSync('mkfifo', [join(root, 'fifo.json')]);
    mkdirSync(join(root, 'dir.json'));
    writeFileSync(join(root, 'big.json'), 'x'.repeat(2049));
    writeFileSync(join(root, 'latin1.json'), Buffer.from([0x7b, 0xe9, 0x7d]));
    const expected: [string, RegExp][] = [
      ['link.json', /symbolic link/],
      ['fifo.json', /not a regular file/],
      ['dir.json', /not a regular file/],
      ['big.json', /larger than 2048 bytes/],
      ['latin1.json', /not valid UTF-8/],
    ];
    for (const [name, reason] of expected) {
      const read = await readTextFileAsync(join(root, name), 2048);
      assert.equal(read.kind, 'refused', name);
      if (read.kind === 'refused') assert.match(read.reason, reason, name);
    }
    assert.equal(
      (await readTextFileAsync(join(root, 'big.json'), 4096)).kind,
      'ok',
      'the cap is the caller’s',
    );
  });

  it('writeFileAtomic creates folders, replaces a file whole, keeps its mode and leaves no temporary', async () => {
    const root = tempRoot();
    const target = join(root, '.loop', 'briefs', 'a.panel.json');
    await writeFileAtomic(target, 'first\n');
    assert.equal(readFileSync(target, 'utf8'), 'first\n');
    chmodSync(target, 0o600);
    await Promise.all([writeFileAtomic(target, 'second\n'), writeFileAtomic(target, 'third\n')]);
    assert.match(readFileSync(target, 'utf8'), /^(second|third)\n$/);
    assert.equal(statSync(target).mode & 0o777, 0o600);
    assert.deepEqual(readdirSync(join(root, '.loop', 'briefs')), ['a.panel.json']);
  });

  it('writeFileAtomic fails cleanly when the rename is refused, leaving no temporary behind', async () => {
    const root = tempRoot();
    // A non-empty folder where the file should go: the temporary is written, the rename fails.
    mkdirSync(join(root, 'target.json'));
    writeFileSync(join(root, 'target.json', 'inside'), 'kept\n');
    await assert.rejects(writeFileAtomic(join(root, 'target.json'), 'new\n'), /EISDIR|ENOTEMPTY|EEXIST/);
    assert.deepEqual(readdirSync(root), ['target.json']);
    assert.equal(readFileSync(join(root, 'target.json', 'inside'), 'utf8'), 'kept\n');
  });
});
