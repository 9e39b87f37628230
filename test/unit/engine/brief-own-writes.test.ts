// The cut of Loop Ledger's own writes from a diff, as properties: a section goes exactly when
// every path it names is under the root's `.loop/`; everything else stays byte for byte, and
// the text and the bytes of one diff are cut alike.
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { withoutOwnSections } from '../../../src/engine/brief/own-writes';
import { isOwnWrite } from '../../../src/engine/own-writes';

const segment = fc.constantFrom('src', 'lib', '.loop', 'ledgers', 'runs', 'a', 'b', 'x.ts', 's.json', 'é.md');
const path = fc.array(segment, { minLength: 1, maxLength: 4 }).map((parts) => parts.join('/'));

/** One `diff --git` section changing `from` (renamed to `to` when they differ). */
function section(from: string, to: string, body: string[]): string {
  const rename = from === to ? [] : [`similarity index 90%`, `rename from ${from}`, `rename to ${to}`];
  return [
    `diff --git a/${from} b/${to}`,
    ...rename,
    `--- a/${from}`,
    `+++ b/${to}`,
    '@@ -1 +1 @@',
    ...body.map((l) => `+${l}`),
    '',
  ].join('\n');
}

const sectionArb = fc
  .tuple(
    path,
    fc.option(path, { nil: undefined }),
    fc.array(fc.constantFrom('x', '.loop/y', 'z'), { maxLength: 3 }),
  )
  .map(([from, to, body]) => ({ from, to: to ?? from, text: section(from, to ?? from, body) }));

describe('brief: Loop Ledger’s own writes cut from a diff', () => {
  it('keeps exactly the sections that name a path outside .loop/, text and bytes alike', () =>
    fc.assert(
      fc.property(
        fc.string({ maxLength: 20 }).map((p) => p.replace(/diff --git /g, '')),
        fc.array(sectionArb, { maxLength: 8 }),
        (preamble, sections) => {
          const head = preamble === '' || preamble.endsWith('\n') ? preamble : `${preamble}\n`;
          const diff = head + sections.map((s) => s.text).join('');
          const own = (s: { from: string; to: string }) => isOwnWrite(s.from) && isOwnWrite(s.to);
          const expected =
            head +
            sections
              .filter((s) => !own(s))
              .map((s) => s.text)
              .join('');
          const cutOut = sections.filter(own).flatMap((s) => [s.from, s.to]);
          const text = withoutOwnSections({ text: diff });
          assert.equal(text.diff.text, expected);
          assert.deepEqual(text.leftOut, [...new Set(cutOut)].sort());
          const bytes = withoutOwnSections({ utf8: Buffer.from(diff) });
          assert.equal(Buffer.from(bytes.diff.utf8).toString(), expected);
          assert.deepEqual(bytes.leftOut, text.leftOut);
        },
      ),
      { numRuns: 300 },
    ));

  it('a root below the top owns only its own .loop/', () => {
    const diff =
      section('pkg/.loop/ledgers/s.json', 'pkg/.loop/ledgers/s.json', ['x']) +
      section('.loop/l.json', '.loop/l.json', ['y']);
    const cut = withoutOwnSections({ text: diff }, 'pkg/');
    assert.deepEqual(cut.leftOut, ['pkg/.loop/ledgers/s.json']);
    assert.equal(cut.diff.text, section('.loop/l.json', '.loop/l.json', ['y']));
  });

  it('a diff that never names .loop/ comes back as the same object', () => {
    const input = { text: section('src/a.ts', 'src/a.ts', ['x']) };
    assert.equal(withoutOwnSections(input).diff, input);
  });
});
