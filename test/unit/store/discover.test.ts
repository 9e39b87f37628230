import assert from 'node:assert/strict';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { listSessions } from '../../../src/store/discover';
import { serializeLedger } from '../../../src/store/ledger-file';
import { locateLedger } from '../../../src/store/locate';
import { ledgerDir, legacyLedgerDir } from '../../../src/store/paths';
import { sampleLedger } from './fixtures/sample-ledger';
import { useTempDir } from './fixtures/temp-dir';

function originalText(session: string, iterations: number): string {
  const { epoch: _e, epochs: _es, ...ledger } = sampleLedger(session, iterations);
  return `${JSON.stringify(ledger, null, 2)}\n`;
}

describe('store: locate', () => {
  const tmp = useTempDir();

  it('reads and writes .loop/ledgers when nothing exists yet', () => {
    const where = locateLedger(tmp(), 's1');
    assert.deepEqual(where, {
      readPath: join(ledgerDir(tmp()), 's1.json'),
      writePath: where.readPath,
      legacy: false,
    });
  });

  it('falls back to the original engine file for reading only', () => {
    mkdirSync(legacyLedgerDir(tmp()), { recursive: true });
    const legacy = join(legacyLedgerDir(tmp()), 's1.json');
    writeFileSync(legacy, originalText('s1', 1));
    assert.deepEqual(locateLedger(tmp(), 's1'), {
      readPath: legacy,
      writePath: join(ledgerDir(tmp()), 's1.json'),
      legacy: true,
    });
  });

  it('prefers the .loop file once it exists', () => {
    mkdirSync(legacyLedgerDir(tmp()), { recursive: true });
    mkdirSync(ledgerDir(tmp()), { recursive: true });
    writeFileSync(join(legacyLedgerDir(tmp()), 's1.json'), originalText('s1', 1));
    writeFileSync(join(ledgerDir(tmp()), 's1.json'), serializeLedger(sampleLedger('s1', 2)));
    assert.equal(locateLedger(tmp(), 's1').legacy, false);
  });

  it('refuses a bad session id', () => {
    assert.throws(
      () => locateLedger(tmp(), '../../etc/passwd'),
      /session id "\.\.\/\.\.\/etc\/passwd" is not valid/,
    );
  });
});

describe('store: discover', () => {
  const tmp = useTempDir();

  it('lists nothing for a workspace without ledgers', () => {
    assert.deepEqual(listSessions(tmp()), []);
  });

  it('lists both folders, .loop winning a clash, with corrupt files reported not thrown', () => {
    const dir = ledgerDir(tmp());
    const legacyDir = legacyLedgerDir(tmp());
    mkdirSync(dir, { recursive: true });
    mkdirSync(legacyDir, { recursive: true });
    const closed = {
      ...sampleLedger('done', 3),
      status: 'closed' as const,
      final_outcome: 'complete' as const,
      epoch: 2,
    };
    closed.iterations[2] = { ...closed.iterations[2]!, outcome: 'complete' };
    writeFileSync(join(dir, 'done.json'), serializeLedger(closed));
    writeFileSync(join(dir, 'both.json'), serializeLedger(sampleLedger('both', 1)));
    writeFileSync(join(dir, 'broken.json'), '{"session": ');
    writeFileSync(join(dir, 'future.json'), JSON.stringify({ schema_version: 99 }));
    writeFileSync(join(dir, 'empty.json'), serializeLedger(sampleLedger('empty', 0)));
    // Never listed: lock, kept copy, temporary file, a name that is not a session id, a folder.
    writeFileSync(join(dir, 'done.json.lock'), '{}');
    writeFileSync(join(dir, 'done.json.corrupt-20250101T000000Z'), '{');
    writeFileSync(join(dir, '.done.json.123.1.abc.tmp'), '{');
    writeFileSync(join(dir, '-bad.json'), '{}');
    mkdirSync(join(dir, 'folder.json'));
    writeFileSync(join(legacyDir, 'both.json'), originalText('both', 5));
    writeFileSync(join(legacyDir, 'old.json'), originalText('old', 4));

    const list = listSessions(tmp());
    assert.deepEqual(
      list.map((s) => s.session),
      ['both', 'broken', 'done', 'empty', 'future', 'old'],
    );
    const by = Object.fromEntries(list.map((s) => [s.session, s]));
    assert.deepEqual(by.done, {
      session: 'done',
      path: join(dir, 'done.json'),
      legacy: false,
      status: 'closed',
      final_outcome: 'complete',
      epoch: 2,
      iterations: 3,
      last_outcome: 'complete',
      // Records without cost or token keys spend nothing.
      spend: { cost_usd: 0, tokens_in: 0, tokens_out: 0 },
    });
    assert.equal(by.both?.legacy, false);
    assert.equal(by.both?.iterations, 1);
    assert.equal(by.old?.legacy, true);
    assert.equal(by.old?.epoch, 1, 'an original ledger without epochs is in epoch 1');
    assert.equal(by.old?.iterations, 4);
    assert.equal(by.old?.last_outcome, 'continue');
    assert.equal(by.empty?.iterations, 0);
    assert.equal(by.empty?.last_outcome, null);
    assert.match(by.broken?.error ?? '', /unreadable ledger: is not valid JSON/);
    assert.equal(by.broken?.status, null);
    assert.match(by.future?.error ?? '', /newer Loop Ledger \(schema_version 99\)/);
    // Listing never writes: the legacy file is untouched.
    assert.equal(readFileSync(join(legacyDir, 'both.json'), 'utf8'), originalText('both', 5));
  });

  it('lists a ledger named after a Windows device as unreadable, naming why, without opening it', () => {
    const legacyDir = legacyLedgerDir(tmp());
    mkdirSync(legacyDir, { recursive: true });
    writeFileSync(join(legacyDir, 'con.json'), originalText('con', 2));
    writeFileSync(join(legacyDir, 'Nul.x.json'), originalText('Nul.x', 1));
    const list = listSessions(tmp());
    assert.deepEqual(
      list.map((s) => s.session),
      ['Nul.x', 'con'],
    );
    for (const summary of list) {
      assert.equal(summary.iterations, null);
      assert.equal(summary.legacy, true);
      assert.match(summary.error ?? '', /is a Windows device name/);
    }
  });
});
