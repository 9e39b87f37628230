import assert from 'node:assert/strict';
import fc from 'fast-check';
import { NATURAL_CAP_NOTE, NO_FOLLOW_UP_NOTE, parseRepeatSpec } from '../../../src/engine/repeat/spec';

function ok(raw: string) {
  const parsed = parseRepeatSpec(raw);
  if (!parsed.ok) throw new Error(`refused: ${parsed.message}`);
  return parsed.spec;
}
function refused(raw: string): string {
  const parsed = parseRepeatSpec(raw);
  if (parsed.ok) throw new Error(`accepted: ${JSON.stringify(parsed.spec)}`);
  return parsed.message;
}

describe('repeat: --spec grammar of the original repeat tool (`<inner> [then <follow-up>] [max=N]`)', () => {
  it("the examples in the original repeat tool's documentation", () => {
    assert.deepEqual(ok('improve-code-structure'), {
      inner: 'improve-code-structure',
      followUp: null,
      max: null,
      notes: [],
    });
    assert.deepEqual(ok('improve-code-structure then release'), {
      inner: 'improve-code-structure',
      followUp: 'release',
      max: null,
      notes: [],
    });
    assert.deepEqual(
      ok('improve-code-structure src/auth.ts then release').inner,
      'improve-code-structure src/auth.ts',
    );
    assert.deepEqual(ok('simplify the lib/ directory then commit').followUp, 'commit');
    assert.deepEqual(ok('improve-code-structure max=10 then release'), {
      inner: 'improve-code-structure',
      followUp: 'release',
      max: 10,
      notes: [],
    });
  });

  it('the cap token counts anywhere, and only in its literal form', () => {
    assert.equal(ok('max=3 tidy').max, 3);
    assert.equal(ok('max=3 tidy').inner, 'tidy');
    assert.equal(ok('tidy then release max=4').followUp, 'release');
    assert.equal(ok('tidy then release max=4').max, 4);
    const natural = ok('tidy up to 10 times');
    assert.equal(natural.max, null);
    assert.equal(natural.inner, 'tidy up to 10 times');
    assert.deepEqual(natural.notes, [NATURAL_CAP_NOTE]);
  });

  it('max=0, non-numeric and repeated max= are usage errors', () => {
    assert.match(refused('tidy max=0'), /max=0 must allow at least one iteration/);
    assert.match(refused('tidy max=ten'), /max=ten is not a whole number/);
    assert.match(refused('tidy max='), /max= is not a whole number/);
    assert.match(refused('tidy max=-1'), /not a whole number/);
    assert.match(refused('tidy max=2 max=3'), /max= given 2 times/);
    assert.match(refused(''), /empty/);
    assert.match(refused('   '), /empty/);
    assert.match(refused('max=3'), /nothing to repeat/);
  });

  it('the first " then " splits, case-insensitively, with whitespace on both sides', () => {
    assert.equal(ok('tidy THEN release').followUp, 'release');
    assert.equal(ok('tidy\tThen\trelease').followUp, 'release');
    assert.equal(ok('strengthen tests').followUp, null); // "then" inside a word never splits
    assert.equal(ok('tidy then-release').followUp, null);
  });

  it('a follow-up that does not start with a skill name is a false positive', () => {
    const spec = ok('explain why it fails and then Fix it');
    assert.equal(spec.inner, 'explain why it fails and then Fix it');
    assert.equal(spec.followUp, null);
    assert.deepEqual(spec.notes, [NO_FOLLOW_UP_NOTE]);
    assert.equal(ok('tidy then ./release.sh').followUp, null);
    assert.equal(ok('tidy then npm run release').followUp, 'npm run release');
  });

  it('extra "then"s are reported as ignored; only the first separates', () => {
    const spec = ok('tidy then release then deploy');
    assert.equal(spec.inner, 'tidy');
    assert.equal(spec.followUp, 'release then deploy');
    assert.equal(spec.notes.length, 1);
    assert.match(spec.notes[0] as string, /1 further "then" ignored/);
  });

  // Properties: generated invocations round-trip through the grammar.
  const word = fc
    .stringMatching(/^[a-z][a-z0-9./-]{0,7}$/)
    .filter((w) => w !== 'then' && !w.startsWith('max='));
  const skill = fc.stringMatching(/^[a-z0-9-]{1,10}$/).filter((w) => w !== 'then');
  const args = fc.array(word, { minLength: 0, maxLength: 4 });

  it('property: inner, follow-up and cap are recovered wherever the cap sits', () => {
    fc.assert(
      fc.property(
        skill,
        args,
        fc.option(fc.tuple(skill, args)),
        fc.option(fc.integer({ min: 1, max: 9999 })),
        fc.nat(),
        (name, innerArgs, follow, max, at) => {
          const inner = [name, ...innerArgs].join(' ');
          const followUp = follow ? [follow[0], ...follow[1]].join(' ') : null;
          const parts = [...inner.split(' '), ...(followUp ? ['then', ...followUp.split(' ')] : [])];
          if (max !== null) parts.splice(at % (parts.length + 1), 0, `max=${max}`);
          const spec = ok(parts.join(' '));
          // A cap spliced between inner and "then" leaves the same words on each side.
          assert.equal(spec.inner, inner);
          assert.equal(spec.followUp, followUp);
          assert.equal(spec.max, max);
        },
      ),
    );
  });

  it('property: never throws; an accepted spec has a non-empty inner and no max= token left', () => {
    const anyText = fc.oneof(
      fc.string({ maxLength: 60 }),
      fc
        .array(fc.oneof(word, fc.constantFrom('then', 'THEN', 'max=3', 'max=0', 'max=x', ' ', '\t')), {
          maxLength: 10,
        })
        .map((a) => a.join(' ')),
    );
    fc.assert(
      fc.property(anyText, (raw) => {
        const parsed = parseRepeatSpec(raw);
        if (!parsed.ok) {
          assert.ok(parsed.message.length > 0);
          return;
        }
        assert.ok(parsed.spec.inner.trim().length > 0);
        const all = `${parsed.spec.inner} ${parsed.spec.followUp ?? ''}`.split(/\s+/);
        assert.ok(!all.some((t) => /^max=/.test(t)));
        if (parsed.spec.max !== null) assert.ok(parsed.spec.max >= 1);
      }),
    );
  });

  it('property: parsing is stable — re-rendering a parsed spec parses to the same spec', () => {
    fc.assert(
      fc.property(
        skill,
        args,
        fc.option(skill),
        fc.option(fc.integer({ min: 1, max: 50 })),
        (name, a, follow, max) => {
          const raw = [name, ...a, ...(follow ? ['then', follow] : []), ...(max ? [`max=${max}`] : [])].join(
            ' ',
          );
          const first = ok(raw);
          const again = ok(
            [
              first.inner,
              ...(first.followUp ? ['then', first.followUp] : []),
              ...(first.max ? [`max=${first.max}`] : []),
            ].join(' '),
          );
          assert.deepEqual(again, first);
        },
      ),
    );
  });
});
