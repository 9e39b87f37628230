// How the CLI reads its flags (node:util parseArgs's rules, strict), seen from outside: each kind
// of bad argv is a usage error that names the flag in one line on stderr and exits 2, before
// anything is read or written; -h prints the help. The benchmark's switch back to parseArgs itself
// (LOOP_LEDGER_BENCH_PLAIN=flag-tokenizer) gives the same answers.
import assert from 'node:assert/strict';
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { readLedger, runCli, sampleContract, tempRoot, writeJson } from '../helpers/cli';

describe('cli: flags', () => {
  const cases: [string, string[], RegExp][] = [
    [
      'a string flag followed by a flag',
      ['status', '--session', '--json'],
      /^loop-ledger status: Option '--session' argument is ambiguous\.\n$/,
    ],
    [
      'an unknown flag',
      ['iterate', '--bogus'],
      /^loop-ledger iterate: Unknown option '--bogus'\. To specify a positional argument starting with a '-', place it at the end of the command after '--', as in '-- "--bogus"\n$/,
    ],
    [
      'a string flag without its value',
      ['status', '--session'],
      /^loop-ledger status: Option '--session <value>' argument missing\n$/,
    ],
    [
      'a boolean flag given a value',
      ['status', '--session', 's1', '--json=1'],
      /^loop-ledger status: Option '--json' does not take an argument\n$/,
    ],
    ['an unknown short flag', ['status', '-x'], /^loop-ledger status: Unknown option '-x'\./],
    [
      'a stray word',
      ['status', '--session', 's1', 'stray'],
      /^loop-ledger status: unrecognized argument: "stray"\n$/,
    ],
    [
      'a stray word before -- (repeat takes no positionals)',
      ['repeat', '--session', 's1', 'stray'],
      /Unexpected argument 'stray'\. This command does not take positional arguments\n$/,
    ],
    ['an unknown flag to repeat', ['repeat', '--session', 's1', '--bogus'], /Unknown option '--bogus'\n$/],
  ];
  for (const [what, argv, message] of cases) {
    it(`${what}: exit 2, one line naming it, nothing written`, () => {
      const root = tempRoot();
      const [command, ...rest] = argv as [string, ...string[]];
      const r = runCli([command, '--root', root, ...rest]);
      assert.equal(r.code, 2, r.stderr);
      assert.equal(r.stdout, '');
      assert.match(r.stderr, message);
      assert.ok(!existsSync(root) || readdirSync(root).length === 0, 'nothing written');
      const plain = runCli([command, '--root', root, ...rest], {
        env: { LOOP_LEDGER_BENCH_PLAIN: 'flag-tokenizer' },
      });
      assert.deepEqual(plain, r);
    });
  }

  it('values: --flag=value and --flag value alike, a repeated flag keeps every value in order', () => {
    const root = tempRoot();
    const contract = writeJson(join(root, 'contract.json'), sampleContract());
    const open = runCli(['open', '--root', root, '--session=s1', `--contract=${contract}`]);
    assert.equal(open.code, 0, open.stderr);
    const iterate = runCli([
      'iterate',
      `--root=${root}`,
      '--session',
      's1',
      '--outcome=continue',
      '--action',
      'a1',
      '--files-changed',
      'b.ts',
      '--files-changed=a.ts',
    ]);
    assert.equal(iterate.code, 0, iterate.stderr);
    const again = runCli(['status', '--root', root, '--session=s1', '--json'], {
      env: { LOOP_LEDGER_BENCH_PLAIN: 'flag-tokenizer' },
    });
    assert.equal(again.code, 0, again.stderr);
    assert.equal(again.json.iterations, 1);
    const [record] = readLedger(root, 's1').iterations;
    assert.deepEqual(record.actions, ['a1']);
    assert.equal(record.outcome, 'continue');
    assert.deepEqual(record.files_changed, ['b.ts', 'a.ts']);
  });

  it('-h and --help print the command help and exit 0', () => {
    for (const flag of ['-h', '--help']) {
      const r = runCli(['status', flag]);
      assert.equal(r.code, 0, r.stderr);
      assert.match(r.stdout, /^usage: loop-ledger status \[flags\]/);
    }
  });
});
