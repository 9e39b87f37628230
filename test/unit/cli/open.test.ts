import assert from 'node:assert/strict';
import { existsSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  ledgerPath,
  readLedger,
  runCli,
  sampleContract,
  tempRoot,
  writeJson,
  writeText,
} from '../helpers/cli';
import { lines, loopWith } from './setup';

function openIn(root: string, contract: string, ...args: string[]) {
  return runCli(['open', '--root', root, '--session', 's', '--contract', contract, ...args]);
}

describe('cli: open', () => {
  it('prints {session, status, epoch, next_iteration} and writes a versioned ledger', () => {
    const root = tempRoot();
    const c = writeJson(join(root, 'c.json'), sampleContract());
    const r = openIn(root, c, '--json');
    assert.equal(r.code, 0, r.stderr);
    assert.deepEqual(r.json, { epoch: 1, next_iteration: 1, session: 's', status: 'open' });
    const ledger = JSON.parse(readFileSync(ledgerPath(root, 's'), 'utf8'));
    assert.equal(ledger.schema_version, 1);
    assert.equal(ledger.status, 'open');
    assert.equal(ledger.stall_threshold, 3);
    assert.deepEqual(ledger.epochs, []);
    assert.equal(ledger.pending_brief, null);
    assert.match(ledger.opened_at, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
    assert.deepEqual(ledger.baseline_provenance, { 'hard-one': 'declared', 'soft-one': 'declared' });
    assert.deepEqual(Object.keys(ledger), [...Object.keys(ledger)].sort(), 'keys are sorted');
  });

  it("--stall-threshold 0, -2 or beyond 2^53: exit 2 with the engine's finding, no ledger, no folder", () => {
    for (const value of ['0', '-2', '9'.repeat(30)]) {
      const root = tempRoot();
      const c = writeJson(join(root, 'c.json'), sampleContract());
      const r = openIn(root, c, `--stall-threshold=${value}`);
      assert.equal(r.code, 2, r.stderr);
      assert.equal(r.stdout, '');
      assert.match(
        lines(r.stderr)[0] ?? '',
        /^--stall-threshold: expected a whole number of at least 1, got /,
      );
      assert.equal(lines(r.stderr).length, 1, r.stderr);
      assert.equal(existsSync(join(root, '.loop')), false, 'nothing created');
    }
  });

  it('over an open ledger: exit 3 before the contract is read, nothing written', () => {
    const loop = loopWith();
    const before = readFileSync(ledgerPath(loop.root, loop.session), 'utf8');
    const r = loop.cli('open', '--contract', join(loop.root, 'does-not-exist.json'));
    assert.equal(r.code, 3);
    assert.match(r.stderr, /sess-1: ledger is open/);
    assert.equal(readFileSync(ledgerPath(loop.root, loop.session), 'utf8'), before);
  });

  it('contract unreadable → 2; not JSON → 1; a JSON array → 1; invalid → 1 with one line per finding', () => {
    const root = tempRoot();
    assert.equal(openIn(root, join(root, 'missing.json')).code, 2);
    assert.equal(openIn(root, writeText(join(root, 'bad.json'), '{"purpose": ')).code, 1);
    assert.equal(openIn(root, writeJson(join(root, 'arr.json'), [1, 2])).code, 1);
    const bad = writeJson(
      join(root, 'c.json'),
      sampleContract({ owner: '  ', extra_field: 1, iteration_limit: true }),
    );
    const r = openIn(root, bad);
    assert.equal(r.code, 1);
    assert.ok(lines(r.stderr).length >= 3, r.stderr);
    assert.match(r.stderr, /extra_field/);
    assert.match(r.stderr, /owner/);
    assert.match(r.stderr, /iteration_limit/);
    assert.equal(existsSync(ledgerPath(root, 's')), false);
  });

  it('refuses null fields and evidence commands with placeholders or unknown programs', () => {
    const root = tempRoot();
    const rubric = (sampleContract().quality_rubric as Record<string, unknown>[]).map((d) => ({ ...d }));
    rubric[0]!.evidence_command = 'tool --root R';
    rubric[1]!.evidence_command = 'definitely-not-a-program-xyz --x';
    const r = openIn(
      root,
      writeJson(join(root, 'c.json'), sampleContract({ purpose: null, quality_rubric: rubric })),
    );
    assert.equal(r.code, 1);
    assert.match(r.stderr, /purpose/);
    assert.match(r.stderr, /placeholder/i);
    assert.match(r.stderr, /definitely-not-a-program-xyz/);
  });

  it('a program under the root resolves; `LC_ALL=C bash script.sh` opens', () => {
    const root = tempRoot();
    writeText(join(root, 'tools', 'measure.sh'), '#!/bin/sh\necho 1\n');
    const rubric = (sampleContract().quality_rubric as Record<string, unknown>[]).map((d) => ({ ...d }));
    rubric[0]!.evidence_command = 'tools/measure.sh --format JSON';
    rubric[1]!.evidence_command = 'LC_ALL=C bash script.sh';
    const r = openIn(root, writeJson(join(root, 'c.json'), sampleContract({ quality_rubric: rubric })));
    assert.equal(r.code, 0, r.stderr);
  });

  describe('--baseline-evidence', () => {
    it('a transcript showing the declared baseline marks the dimension measured', () => {
      const root = tempRoot();
      const t = writeText(join(root, 't.txt'), 'files: 10\n');
      const r = openIn(
        root,
        writeJson(join(root, 'c.json'), sampleContract()),
        '--baseline-evidence',
        `hard-one=${t}`,
      );
      assert.equal(r.code, 0, r.stderr);
      assert.deepEqual(readLedger(root, 's').baseline_provenance, {
        'hard-one': 'measured',
        'soft-one': 'declared',
      });
      const status = runCli(['status', '--root', root, '--session', 's', '--json']);
      assert.equal(status.json.baselines_measured, 1);
      assert.equal(status.json.baselines_total, 2);
    });

    it('standalone-number rule: 10 is evidenced by 10.0 but not by 100 or 10.5', () => {
      const root = tempRoot();
      const c = writeJson(join(root, 'c.json'), sampleContract());
      const ok = writeText(join(root, 'ok.txt'), 'value=10.0;');
      const r1 = openIn(root, c, '--baseline-evidence', `hard-one=${ok}`, '--force');
      assert.equal(r1.code, 0, r1.stderr);
      for (const text of ['100 files', 'x 10.5', '210', 'v1.10']) {
        const t = writeText(join(root, 'bad.txt'), text);
        const r = openIn(root, c, '--baseline-evidence', `hard-one=${t}`, '--force');
        assert.equal(r.code, 1, `${text}: ${r.stderr}`);
        assert.match(r.stderr, /hard-one/);
      }
    });

    it('unreadable or whitespace-only transcript → 8, reported before the other evidence problems', () => {
      const root = tempRoot();
      const c = writeJson(join(root, 'c.json'), sampleContract());
      const blank = writeText(join(root, 'blank.txt'), '  \n\t\n');
      const r = openIn(
        root,
        c,
        '--baseline-evidence',
        'nope-no-equals',
        '--baseline-evidence',
        `hard-one=${blank}`,
      );
      assert.equal(r.code, 8, r.stderr);
      const r2 = openIn(root, c, '--baseline-evidence', `soft-one=${join(root, 'missing.txt')}`);
      assert.equal(r2.code, 8);
      assert.equal(existsSync(ledgerPath(root, 's')), false);
    });

    it('no `=`, an undeclared dimension → 1', () => {
      const root = tempRoot();
      const c = writeJson(join(root, 'c.json'), sampleContract());
      const t = writeText(join(root, 't.txt'), '10');
      assert.equal(openIn(root, c, '--baseline-evidence', 'hard-one').code, 1);
      assert.equal(openIn(root, c, '--baseline-evidence', `unknown-dim=${t}`).code, 1);
    });
  });

  describe('epochs', () => {
    it('re-opening a closed ledger keeps history: epochs[], iterations and completed actions carry forward', () => {
      const loop = loopWith();
      assert.equal(loop.cli('iterate', '--outcome', 'continue', '--action', 'a1', '--state', 's1').code, 0);
      assert.equal(
        loop.cli('iterate', '--outcome', 'revise', '--action', 'a2', '--note', 'wrong approach').code,
        0,
      );
      const r = loop.cli('open', '--contract', loop.contractPath, '--stall-threshold', '4', '--json');
      assert.equal(r.code, 0, r.stderr);
      assert.deepEqual(r.json, { epoch: 2, next_iteration: 3, session: loop.session, status: 'open' });
      const l = readLedger(loop.root, loop.session);
      assert.equal(l.epoch, 2);
      assert.equal(l.epochs.length, 1);
      assert.deepEqual(Object.keys(l.epochs[0]).sort(), [
        'close_blocker',
        'close_evidence',
        'close_note',
        'close_recommended_next',
        'contract',
        'final_outcome',
        'iterations',
        'n',
      ]);
      assert.equal(l.epochs[0].n, 1);
      assert.equal(l.epochs[0].final_outcome, 'revise');
      assert.equal(l.epochs[0].close_note, 'wrong approach');
      assert.deepEqual(l.epochs[0].iterations, [1, 2]);
      assert.deepEqual(l.completed_actions, ['a1', 'a2']);
      assert.equal(l.stall_threshold, 4);
      assert.equal(l.pending_brief, null);
      // An action from the earlier epoch is still refused; n continues, epoch advances.
      assert.equal(loop.cli('iterate', '--outcome', 'continue', '--action', 'a1').code, 5);
      const next = loop.cli('iterate', '--outcome', 'continue', '--action', 'a3', '--state', 's1', '--json');
      assert.equal(next.code, 0, next.stderr);
      assert.equal(next.json.n, 3);
      assert.equal(next.json.epoch, 2);
      assert.equal(next.json.stall, null, 'a state hash from the earlier epoch does not fire circular-state');
      assert.equal(next.json.outcome, 'continue');
    });

    it('--force discards: a fresh ledger at epoch 1 with no history', () => {
      const loop = loopWith();
      loop.cli('iterate', '--outcome', 'continue', '--action', 'a1');
      const r = loop.cli('open', '--contract', loop.contractPath, '--force', '--json');
      assert.equal(r.code, 0);
      assert.deepEqual(r.json, { epoch: 1, next_iteration: 1, session: loop.session, status: 'open' });
      const l = readLedger(loop.root, loop.session);
      assert.deepEqual(l.iterations, []);
      assert.deepEqual(l.completed_actions, []);
      assert.equal(l.resumed, 0);
    });

    it('a corrupt ledger is refused (2) and kept; --force keeps a .corrupt-<time> copy first', () => {
      const root = tempRoot();
      const c = writeJson(join(root, 'c.json'), sampleContract());
      const garbage = Buffer.from([0x7b, 0xff, 0xfe, 0x00, 0x22]);
      writeText(ledgerPath(root, 's'), garbage);
      const r = openIn(root, c);
      assert.equal(r.code, 2);
      assert.deepEqual(readFileSync(ledgerPath(root, 's')), garbage);
      const f = openIn(root, c, '--force');
      assert.equal(f.code, 0, f.stderr);
      const copies = readdirSync(join(root, '.loop', 'ledgers')).filter((n) =>
        n.startsWith('s.json.corrupt-'),
      );
      assert.equal(copies.length, 1);
      assert.deepEqual(readFileSync(join(root, '.loop', 'ledgers', copies[0]!)), garbage);
      assert.equal(readLedger(root, 's').status, 'open');
    });

    it('a ledger from a newer schema version is refused, even with --force', () => {
      const root = tempRoot();
      const c = writeJson(join(root, 'c.json'), sampleContract());
      const text = JSON.stringify({
        schema_version: 99,
        session: 's',
        status: 'closed',
        iterations: [],
        contract: {},
      });
      writeText(ledgerPath(root, 's'), text);
      for (const args of [[], ['--force']]) {
        const r = openIn(root, c, ...args);
        assert.equal(r.code, 2);
        assert.match(r.stderr, /schema_version 99/);
      }
      assert.equal(readFileSync(ledgerPath(root, 's'), 'utf8'), text);
      writeFileSync(ledgerPath(root, 's'), text);
    });
  });
});
