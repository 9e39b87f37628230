// The `.loop.md` line grammar: each quirk of the original parser, one row each.
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { REQUIRED_FIELDS } from '../../../src/engine/engineering/fields';
import { parseEngineeringMarkdown } from '../../../src/engine/engineering/parse-md';
import { SEED_TEMPLATE } from './helpers';

const fieldsOf = (text: string): Record<string, string> =>
  Object.fromEntries(parseEngineeringMarkdown(text).fields.entries());

describe('engineering: .loop.md line grammar', () => {
  it('reads the seed template: every field, several per line, empty values kept empty', () => {
    const fields = fieldsOf(SEED_TEMPLATE);
    assert.deepEqual(
      REQUIRED_FIELDS.filter((f) => !(f in fields)),
      [],
    );
    assert.equal(fields.objective, '');
    assert.equal(fields.mode, 'Goal | Loop | Automation | AutoResearch');
    assert.equal(fields.topology, 'single-agent | maker-checker | manager-workers');
    assert.equal(Object.keys(fields).length, 22);
  });

  const rows: [string, string, Record<string, string>][] = [
    ['bullet and bold name', '- **Objective**: fix it', { objective: 'fix it' }],
    ['star and plus bullets', '* Owner: me\n+ Scope: here', { owner: 'me', scope: 'here' }],
    ['names are case-insensitive', 'MAX ITERATIONS: 4', { 'max iterations': '4' }],
    ['bold closing after the colon stays in the value', '**Mode:** Goal', { mode: '** Goal' }],
    [
      'a run of two or more spaces or tabs separates fields',
      'Scope: a  Budget: 5 calls\t\tOwner: b',
      { scope: 'a', budget: '5 calls', owner: 'b' },
    ],
    ['one space does not', 'Scope: a Budget: 5', { scope: 'a Budget: 5' }],
    [
      'aliases',
      'Global work clock: w\nChange budget: 5 files\nReview bandwidth: 2 diffs',
      { 'work clock': 'w', 'review budget': '5 files; 2 diffs' },
    ],
    ['repeated known field joined with "; "', 'Scope: a\nScope: b', { scope: 'a; b' }],
    ['an empty repeat neither replaces nor extends', 'Scope: a\nScope:', { scope: 'a' }],
    ['an empty first value is replaced', 'Scope:\nScope: b', { scope: 'b' }],
    ['unknown keys are kept, normalised', 'Extra   Notes : hello ', { 'extra notes': 'hello' }],
    ['an unknown key repeats even empty', 'Notes: a\nNotes:  ', { notes: 'a; ' }],
    ['an unknown key with nothing after the colon is not a field', 'Notes:', {}],
    [
      'a doubled space inside a name makes it unknown but still normalised',
      'Max  iterations: 4',
      { 'max iterations': '4' },
    ],
    ['a longer name wins', 'Review budget: 5 files', { 'review budget': '5 files' }],
    ['a name must be followed by its colon', 'Budgets: 5', { budgets: '5' }],
    ['CRLF line ends', 'Scope: a\r\nOwner: b\r\n', { scope: 'a', owner: 'b' }],
    [
      'a lone CR, vertical tab and U+2028 also end lines (Python splitlines)',
      'Scope: a\rOwner: b\vMode: Goal\u2028Budget: 1 call',
      { scope: 'a', owner: 'b', mode: 'Goal', budget: '1 call' },
    ],
    ['ideographic space is whitespace', '\u3000Scope:\u3000a', { scope: 'a' }],
    [
      'a BOM hides the first field name',
      '\ufeffObjective: x\nScope: y',
      { '\ufeffobjective': 'x', scope: 'y' },
    ],
    [
      'a value splits at a second known name after two spaces',
      'Objective: fix the  budget: overflow',
      { objective: 'fix the', budget: 'overflow' },
    ],
  ];
  for (const [name, text, expected] of rows) {
    it(name, () => assert.deepEqual(fieldsOf(text), expected));
  }

  it('locates each field on its editor line and columns', () => {
    const parsed = parseEngineeringMarkdown('# t\r\n- **Scope**: one  Owner: me\n\nBudget:  5 calls');
    assert.deepEqual(parsed.spots.get('scope'), {
      line: 1,
      nameStart: 4,
      nameEnd: 9,
      valueStart: 13,
      valueEnd: 16,
    });
    assert.deepEqual(parsed.spots.get('owner'), {
      line: 1,
      nameStart: 18,
      nameEnd: 23,
      valueStart: 25,
      valueEnd: 27,
    });
    assert.deepEqual(parsed.spots.get('budget'), {
      line: 3,
      nameStart: 0,
      nameEnd: 6,
      valueStart: 9,
      valueEnd: 16,
    });
  });

  it('a vertical tab ends a Python line but not an editor line', () => {
    const parsed = parseEngineeringMarkdown('Scope: a\vOwner: b\nMode: Goal');
    assert.equal(parsed.spots.get('owner')?.line, 0);
    assert.equal(parsed.spots.get('owner')?.nameStart, 9);
    assert.equal(parsed.spots.get('mode')?.line, 1);
  });

  it('never throws, and every spot lies inside the text (property)', () => {
    const alphabet = fc.constantFrom(
      ...'ab :*-+\t\n\r\v\u2028\ufeff**'.split(''),
      'Scope',
      'Budget',
      'Mode',
      '  ',
      '٣',
    );
    fc.assert(
      fc.property(
        fc.array(alphabet, { maxLength: 60 }).map((parts) => parts.join('')),
        (text) => {
          const parsed = parseEngineeringMarkdown(text);
          const lines = text.split(/\r\n|\r|\n/);
          for (const spot of parsed.spots.values()) {
            const line = lines[spot.line] ?? '';
            assert.ok(spot.valueEnd <= line.length && spot.nameStart <= spot.nameEnd);
          }
        },
      ),
      { numRuns: 300 },
    );
  });
});
