import assert from 'node:assert/strict';
import { runCli, tempRoot } from '../helpers/cli';
import { assertNoStack, lines, loopWith } from './setup';

describe('cli: usage errors exit 2, like argparse', () => {
  it('no arguments: help on stdout, exit 2', () => {
    const r = runCli([]);
    assert.equal(r.code, 2);
    assert.match(r.stdout, /usage: loop-ledger/);
  });

  it('--help exits 0 with each command listed; a command --help lists its flags', () => {
    const r = runCli(['--help']);
    assert.equal(r.code, 0);
    for (const c of ['open', 'iterate', 'brief', 'score', 'status', 'resume', 'close', 'validate', 'list']) {
      assert.match(r.stdout, new RegExp(`\\b${c}\\b`));
    }
    const i = runCli(['iterate', '--help']);
    assert.equal(i.code, 0);
    for (const flag of ['--outcome', '--action', '--critic-brief', '--measure', '--dependency-missing'])
      assert.ok(i.stdout.includes(flag));
    // Every flag line keeps at least two spaces between the flag and its help, however long.
    for (const line of i.stdout.split('\n').filter((l) => l.startsWith('  --')))
      assert.match(line, /^ {2}--\S+(?: \S+)? {2,}\S/, line);
  });

  it('an unknown command, an unknown flag, a missing required flag, a bad outcome word → 2, one stderr line', () => {
    const loop = loopWith();
    const cases = [
      runCli(['frobnicate']),
      loop.cli('status', '--bogus'),
      runCli(['iterate', '--root', loop.root, '--outcome', 'continue']),
      loop.cli('iterate'),
      loop.cli('iterate', '--outcome', 'finished'),
      loop.cli('close', '--outcome', 'Continue'),
      runCli([
        'open',
        '--root',
        loop.root,
        '--session',
        'x',
        '--contract',
        loop.contractPath,
        '--stall-threshold',
        'three',
      ]),
      runCli([
        'open',
        '--root',
        loop.root,
        '--session',
        'x',
        '--contract',
        loop.contractPath,
        '--stall-threshold',
        '2.5',
      ]),
      loop.cli('status', 'extra-positional'),
    ];
    for (const r of cases) {
      assert.equal(r.code, 2, r.stderr);
      assert.equal(r.stdout, '');
      assert.equal(lines(r.stderr).length, 1, r.stderr);
      assertNoStack(r.stderr);
    }
  });

  it('--root defaults to the current directory', () => {
    const loop = loopWith();
    const r = runCli(['status', '--session', loop.session, '--json'], { cwd: loop.root });
    assert.equal(r.code, 4);
    assert.equal(r.json.session, loop.session);
  });

  it('no ledger → exit 2 for iterate, brief, score, status, resume, close', () => {
    const root = tempRoot();
    const base = ['--root', root, '--session', 'nobody'];
    const runs = [
      runCli(['iterate', ...base, '--outcome', 'continue']),
      runCli(['brief', ...base, '--diff-file', '/dev/null', '--verification-file', '/dev/null']),
      runCli(['score', ...base, '--measure', 'a=1']),
      runCli(['status', ...base]),
      runCli(['resume', ...base]),
      runCli(['close', ...base, '--outcome', 'stop']),
    ];
    for (const r of runs) {
      assert.equal(r.code, 2, r.stderr);
      assert.equal(r.stdout, '');
      assert.match(r.stderr, /nobody: no ledger/);
    }
  });
});
