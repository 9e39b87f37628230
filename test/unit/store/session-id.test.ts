import assert from 'node:assert/strict';
import { dirname, join, relative, isAbsolute } from 'node:path';
import fc from 'fast-check';
import { sessionIdProblem } from '../../../src/store/session-id';
import { InvalidSessionIdError } from '../../../src/store/session-id';
import { ledgerDir, ledgerPath, legacyLedgerPath } from '../../../src/store/paths';

describe('store: session ids', () => {
  it('accepts letters, digits, dot, underscore and dash up to 128 characters', () => {
    for (const id of ['a', 'A', '0', 'fix-login_2025.01', 'a..b', 'x.', 'a'.repeat(128)]) {
      assert.equal(sessionIdProblem(id), null, id);
    }
  });

  it('refuses anything that could leave the folder or is not a plain name', () => {
    for (const id of [
      '',
      '../x',
      '..',
      '.hidden',
      'a/b',
      'a\\b',
      '-x',
      '_x',
      'a'.repeat(129),
      'a\0b',
      'a\n',
      'a b',
      'é',
    ]) {
      const problem = sessionIdProblem(id);
      assert.ok(problem !== null, JSON.stringify(id));
      assert.ok(!problem.includes('\n'), 'one line');
      assert.ok(problem.includes(JSON.stringify(id).slice(0, 20)), `names the id: ${problem}`);
    }
  });

  it('quotes a huge id shortened', () => {
    const problem = sessionIdProblem('x/'.repeat(5000)) ?? '';
    assert.ok(problem.length < 200, problem);
    assert.match(problem, /10000 characters/);
  });

  it('property: every accepted id names a file directly inside the ledger folder', () => {
    const root = join('/', 'work', 'proj');
    const dir = ledgerDir(root);
    const idChars = fc.constantFrom(...'abcXYZ019._-/\\\0\n .'.split(''));
    fc.assert(
      fc.property(
        fc.oneof(fc.string({ unit: idChars, maxLength: 140 }), fc.string({ maxLength: 140 })),
        (id) => {
          if (sessionIdProblem(id) !== null) {
            assert.throws(() => ledgerPath(root, id), InvalidSessionIdError);
            return;
          }
          const path = ledgerPath(root, id);
          assert.equal(dirname(path), dir);
          const rel = relative(dir, path);
          assert.ok(!rel.startsWith('..') && !isAbsolute(rel), rel);
        },
      ),
      { numRuns: 2000 },
    );
  });
});

describe('store: paths', () => {
  it('puts ledgers under .loop/ledgers and legacy ones under .claude/.runtime/work-loop', () => {
    assert.equal(ledgerPath('/r', 's1'), join('/r', '.loop', 'ledgers', 's1.json'));
    assert.equal(legacyLedgerPath('/r', 's1'), join('/r', '.claude', '.runtime', 'work-loop', 's1.json'));
  });

  it('refuses a bad id with the id in the message', () => {
    assert.throws(() => legacyLedgerPath('/r', '../escape'), /"\.\.\/escape"/);
  });
});
