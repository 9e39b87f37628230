// `repeat` reads its flags with the CLI's own tokenizer (src/cli/parse-flags.ts) with positionals
// refused, where it used node:util's parseArgs with `allowPositionals: false`: on random argv both
// give the same values, or refuse with the same first line (the first offending token in order).
import assert from 'node:assert/strict';
import { parseArgs } from 'node:util';
import fc from 'fast-check';
import { parseFlags, type FlagOption } from '../../../src/cli/parse-flags';
import { runCli, tempRoot } from '../helpers/cli';

const OPTIONS: Record<string, FlagOption> = {
  session: { type: 'string' },
  scope: { type: 'string', multiple: true },
  'non-interactive': { type: 'boolean' },
  json: { type: 'boolean' },
  help: { type: 'boolean', short: 'h' },
};

type Result = { ok: Record<string, unknown> } | { error: string };

function run(parse: () => { values: object }): Result {
  try {
    return { ok: { ...parse().values } };
  } catch (error) {
    return { error: String((error as Error).message).split('\n')[0] as string };
  }
}

const ours = (argv: string[]) => run(() => parseFlags(argv, OPTIONS, { allowPositionals: false }));
const node = (argv: string[]) =>
  run(() => parseArgs({ args: argv, options: OPTIONS, strict: true, allowPositionals: false }));

const piece = fc.oneof(
  fc.constantFrom(
    '--session',
    '--scope',
    '--json',
    '--non-interactive',
    '-h',
    '--',
    '-',
    'x',
    '--bogus',
    '--json=1',
    '--session=s',
    '-hx',
    '-x',
  ),
  fc.string({ maxLength: 4 }),
);

describe('cli: the flag tokenizer with positionals refused matches parseArgs', () => {
  it('known cases', () => {
    for (const argv of [[], ['x'], ['x', '--bogus'], ['--bogus', 'x'], ['--session', 's', 'x'], ['--', 'x']])
      assert.deepEqual(ours(argv), node(argv), JSON.stringify(argv));
  });

  it('random argv: the same values, or the same error', () => {
    fc.assert(
      fc.property(fc.array(piece, { maxLength: 7 }), (argv) => {
        assert.deepEqual(ours(argv), node(argv), JSON.stringify(argv));
      }),
      { numRuns: 3000 },
    );
  });

  it('through the CLI: a stray word before -- is a usage error in parseArgs words, exit 2', () => {
    const r = runCli(['repeat', '--root', tempRoot(), '--session', 's1', 'stray']);
    assert.equal(r.code, 2);
    assert.match(r.stderr, /Unexpected argument 'stray'\. This command does not take positional arguments/);
  });
});
