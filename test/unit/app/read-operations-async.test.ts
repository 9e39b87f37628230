// Show Status and Score in the extension read the ledger through the store's asynchronous reader,
// so the extension host never waits on the disk. The outcome must be exactly the synchronous
// operation's, for every kind of ledger the CLI meets: a good one (with and without iterations),
// none, a corrupt one, one from a newer version, a folder in its place, a symlink, the original
// engine's folder, a bad session id.
import assert from 'node:assert/strict';
import { mkdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { openOp } from '../../../src/app/contract/operations';
import { loadLedger } from '../../../src/app/ledger/access';
import { iterateOp, listOp, scoreOp, statusOp } from '../../../src/app/ledger/operations';
import {
  listOpAsync,
  loadLedgerAsync,
  scoreOpAsync,
  statusOpAsync,
} from '../../../src/app/ledger/read-operations-async';
import { ledgerPath, sampleContract, tempRoot, writeJson } from '../helpers/cli';

describe('app: statusOpAsync / scoreOpAsync agree with statusOp / scoreOp', () => {
  const root = tempRoot('loop-ledger-async-ops-');
  const contract = writeJson(join(root, 'contract.json'), sampleContract());
  const open = (session: string) =>
    assert.equal(openOp(root, session, { contractPath: contract, now: new Date(0) }).exitCode, 0);

  before(() => {
    open('fresh');
    open('iterated');
    const done = iterateOp(root, 'iterated', {
      outcome: 'continue',
      actions: ['a'],
      measures: ['hard-one=3', 'soft-one=70'],
      now: new Date(1000),
    });
    assert.equal(done.exitCode, 0, JSON.stringify(done.findings));
    writeFileSync(ledgerPath(root, 'corrupt'), '{"schema_version": 1, ');
    open('newer');
    const newer = JSON.parse(readFileSync(ledgerPath(root, 'newer'), 'utf8'));
    writeJson(ledgerPath(root, 'newer'), { ...newer, schema_version: 999 });
    mkdirSync(ledgerPath(root, 'folder'));
    symlinkSync(ledgerPath(root, 'fresh'), ledgerPath(root, 'linked'));
    open('legacy-src');
    const legacyDir = join(root, '.claude', '.runtime', 'work-loop');
    mkdirSync(legacyDir, { recursive: true });
    writeFileSync(join(legacyDir, 'legacy.json'), readFileSync(ledgerPath(root, 'legacy-src'), 'utf8'));
  });

  const sessions = [
    'fresh',
    'iterated',
    'absent',
    'corrupt',
    'newer',
    'folder',
    'linked',
    'legacy',
    '../x',
    '',
  ];

  it('status: the same exit code, payload and findings', async () => {
    for (const session of sessions)
      assert.deepEqual(await statusOpAsync(root, session), statusOp(root, session), session);
  });

  it('score: the same exit code, payload and findings, good and bad measurements', async () => {
    for (const session of sessions)
      for (const measures of [['hard-one=2', 'soft-one=90'], ['hard-one=x'], []])
        assert.deepEqual(
          await scoreOpAsync(root, session, measures),
          scoreOp(root, session, measures),
          `${session} ${measures.join(' ')}`,
        );
  });

  it('loadLedgerAsync: the same ledger, or the same refusal (exit code and findings)', async () => {
    const settle = async (load: () => unknown) => {
      try {
        return { ledger: await load() };
      } catch (error) {
        return { refused: { ...(error as object) }, message: (error as Error).message };
      }
    };
    for (const session of sessions)
      assert.deepEqual(
        await settle(() => loadLedgerAsync(root, session)),
        await settle(() => loadLedger(root, session)),
        session,
      );
  });

  it('listOpAsync: the same listing as listOp, unreadable files listed with the same problem', async () => {
    writeFileSync(join(root, '.loop', 'ledgers', 'con.json'), '{}'); // a device name: listed, never opened
    writeFileSync(join(root, '.loop', 'ledgers', 'fresh.json.lock'), '');
    const sync = listOp(root);
    assert.ok((sync.payload?.sessions.filter((s) => s.error !== undefined).length ?? 0) >= 3);
    assert.deepEqual(await listOpAsync(root), sync);
    assert.deepEqual(await listOpAsync(join(root, 'no-such-folder')), listOp(join(root, 'no-such-folder')));
  });

  it('covers every case above (not all refused, not all read)', () => {
    const codes = new Set(sessions.map((s) => statusOp(root, s).exitCode));
    assert.ok(codes.size >= 3, `several outcomes: ${[...codes].join(', ')}`);
  });
});
