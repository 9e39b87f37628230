// The CLI's flag tokenizer (src/cli/parse-flags.ts) against the parser it replaces: node:util's
// parseArgs with strict and allowPositionals, run on the same random argv. Both must accept the
// same argv with the same values and positionals, or refuse it with the same first line.
import assert from 'node:assert/strict';
import { parseArgs } from 'node:util';
import fc from 'fast-check';
import { parseFlags, type FlagOption } from '../../../src/cli/parse-flags';
import { runCli, tempRoot } from '../helpers/cli';

/** The shapes the commands declare: booleans, strings, repeatable strings, and -h. */
const OPTIONS: Record<string, FlagOption> = {
  help: { type: 'boolean', short: 'h' },
  root: { type: 'string' },
  json: { type: 'boolean' },
  session: { type: 'string' },
  measure: { type: 'string', multiple: true },
  'diff-file': { type: 'string' },
  force: { type: 'boolean', multiple: true },
  f: { type: 'string' },
};

type Result = { ok: { values: Record<string, unknown>; positionals: string[] } } | { error: string };

function ours(argv: string[], options = OPTIONS): Result {
  try {
    const r = parseFlags(argv, options);
    return { ok: { values: { ...r.values }, positionals: r.positionals } };
  } catch (error) {
    return { error: String((error as Error).message).split('\n')[0] as string };
  }
}

function node(argv: string[], options = OPTIONS): Result {
  try {
    const r = parseArgs({ args: argv, options, strict: true, allowPositionals: true });
    return { ok: { values: { ...r.values }, positionals: r.positionals } };
  } catch (error) {
    return { error: String((error as Error).message).split('\n')[0] as string };
  }
}

/** Arguments that probe every branch: flags, values, `=`, groups, `--`, dashes, unknowns. */
const piece = fc.oneof(
  fc.constantFrom(
    '--root',
    '--json',
    '--session',
    '--measure',
    '--diff-file',
    '--force',
    '--help',
    '-h',
    '-f',
    '--',
    '-',
    '---',
    '--=',
    '--=x',
    '-=',
    '-hh',
    '-hx',
    '-fx',
    '-hfx',
    '-xh',
    '--root=',
    '--root=a=b',
    '--json=',
    '--json=1',
    '--help=x',
    '-h=x',
    '--bogus',
    '--bogus=1',
    '-x',
    '--__proto__',
    '--constructor',
    '--toString',
    '--f',
    '--h',
    'x',
    'a b',
    '-1',
    '-ab',
    'ø',
    '--mëasure',
    '--==',
    '--=a=b',
  ),
  fc.string({ maxLength: 6 }),
  fc.string({ maxLength: 5 }).map((s) => `-${s}`),
  fc.string({ maxLength: 5 }).map((s) => `--${s}`),
);

describe('cli: the flag tokenizer matches node:util parseArgs (strict, positionals allowed)', () => {
  it('known cases', () => {
    for (const argv of [
      [],
      ['--root', 'x', '--json'],
      ['--measure', 'a=1', '--measure', 'b=2', 'pos'],
      ['--root', '-x'],
      ['--root'],
      ['--json=1'],
      ['-hx'],
      ['-h=x'],
      ['--', '--json', '-h'],
      ['-fvalue', '-hf', 'v'],
      ['--force', '--force'],
      ['--=='],
      ['--=root=x'],
    ]) {
      assert.deepEqual(ours(argv), node(argv), JSON.stringify(argv));
    }
  });

  it('random argv: the same values and positionals, or the same error', () => {
    fc.assert(
      fc.property(fc.array(piece, { maxLength: 8 }), (argv) => {
        assert.deepEqual(ours(argv), node(argv), JSON.stringify(argv));
      }),
      { numRuns: 3000 },
    );
  });

  it('through the CLI: a usage error names the flag in parseArgs words and exits 2', () => {
    const r = runCli(['status', '--root', tempRoot(), '--session', '--json']);
    assert.equal(r.code, 2);
    assert.match(r.stderr, /^loop-ledger status: Option '--session' argument is ambiguous\.\n$/);
    const unknown = runCli(['iterate', '--bogus']);
    assert.equal(unknown.code, 2);
    assert.match(unknown.stderr, /Unknown option '--bogus'/);
  });
});
