// The permission boundary's negation scope: a negation governs its whole list up to the end of
// its clause (`;`, a sentence end, "but", "except", "allowed" …), never past it. Checked through
// the CLI on the original's own boundary wording, and as properties of the clause rule.
import assert from 'node:assert/strict';
import { join, resolve } from 'node:path';
import fc from 'fast-check';
import { unexcusedRiskyWords } from '../../../src/engine/engineering/boundary';
import { runCli, tempRoot, writeText } from '../helpers/cli';
import { contractText } from './helpers';

const FIXTURE = resolve(__dirname, '../../../../test/fixtures/engineering/negated-list.loop.md');
const RISKY_CODE = 'risky-boundary-needs-approval-rollback';

describe('engineering: a negation governs its whole clause', () => {
  describe('through `loop-ledger validate`', () => {
    const root = tempRoot();
    let count = 0;
    const validate = (boundary: string) => {
      const path = writeText(
        join(root, `boundary-${++count}.loop.md`),
        contractText({ 'permission boundary': boundary }),
      );
      return runCli(['validate', '--strict', '--json', path]);
    };

    it("passes the original's worked example (one negation heading a five-item list)", () => {
      const r = runCli(['validate', '--strict', FIXTURE]);
      assert.equal(r.stdout.split('\n')[0], 'PASS loop contract', r.stdout + r.stderr);
      assert.equal(r.code, 0);
    });

    it('passes the boundary as the issue quotes it', () => {
      const r = validate(
        'local branch writes only; no push, merge, deploy, external update, or shared-state mutation',
      );
      assert.equal(r.code, 0, r.stdout);
      assert.deepEqual(r.json.findings, []);
    });

    // Lists of 1 to 12 items, the risky words last, so every one but maybe the first lies more
    // than 32 characters after the negation on the longer lists.
    const filler = ['push', 'merge', 'rebase', 'force-push', 'tag', 'release branch', 'cherry-pick'];
    const risky = ['deploy', 'external update', 'shared-state mutation', 'production change', 'publish'];
    for (const length of [1, 2, 5, 8, 12]) {
      it(`passes a negated list of ${length} item(s) ending in risky words`, () => {
        const items = [...filler, ...filler].slice(0, Math.max(0, length - risky.length));
        const all = [...items, ...risky].slice(-length);
        const list = all.length > 1 ? `${all.slice(0, -1).join(', ')}, or ${all.at(-1)}` : all[0];
        const r = validate(`local branch writes only; no ${list}.`);
        assert.equal(r.code, 0, `${list}\n${r.stdout}`);
      });
    }

    for (const boundary of [
      'no push; deploy to production allowed',
      'no push, merge or rebase. Deploy to production.',
      'no push or merge, but publish the package',
      'no writes except deploy to staging',
      'no push allowed, external updates fine',
      'without push permitted, shared config edits',
      'no push, merge, rebase, tag, release, cherry-pick; shared-state mutation as needed',
    ]) {
      it(`still refuses: "${boundary}"`, () => {
        const r = validate(boundary);
        assert.equal(r.code, 1, r.stdout);
        assert.deepEqual(
          r.json.findings.map((f: { code: string }) => f.code),
          [RISKY_CODE],
        );
      });
    }
  });

  describe('the clause rule, as properties', () => {
    const RISKY = ['production', 'deploy', 'deployment', 'publish', 'external', 'shared'];
    const NEGATIONS = ['no', 'not', 'without', 'deny', 'denied'];
    const ENDS = [';', '.', 'but', 'except', 'however', 'unless', 'allowed', 'permitted', 'may', 'can'];
    const FILLER = ['push', 'merge', 'local', 'branch', 'writes', 'only', 'update', 'or', 'and', ','];
    type Token = { kind: 'risky' | 'negation' | 'end' | 'filler'; text: string };
    const token: fc.Arbitrary<Token> = fc.oneof(
      fc.constantFrom(...RISKY).map((text) => ({ kind: 'risky' as const, text })),
      fc.constantFrom(...NEGATIONS).map((text) => ({ kind: 'negation' as const, text })),
      fc.constantFrom(...ENDS).map((text) => ({ kind: 'end' as const, text })),
      fc.constantFrom(...FILLER).map((text) => ({ kind: 'filler' as const, text })),
    );
    const text = (tokens: Token[]) => tokens.map((t) => t.text).join(' ');

    /** The rule read word by word: a negation opens a governed stretch, a clause end closes it. */
    function oracle(tokens: Token[]): string[] {
      const out: string[] = [];
      let governed = false;
      for (const t of tokens) {
        if (t.kind === 'negation') governed = true;
        else if (t.kind === 'end') governed = false;
        else if (t.kind === 'risky' && !governed) out.push(t.text);
      }
      return out;
    }

    it('agrees with a word-by-word reading on any mix of words', () =>
      fc.assert(
        fc.property(fc.array(token, { maxLength: 60 }), (tokens) =>
          assert.deepEqual(unexcusedRiskyWords(text(tokens)), oracle(tokens)),
        ),
        { numRuns: 500 },
      ));

    it('one negation excuses a list of any length with no clause end in it', () =>
      fc.assert(
        fc.property(
          fc.constantFrom(...NEGATIONS),
          fc.array(fc.constantFrom(...RISKY, ...FILLER.filter((f) => f !== ',')), {
            minLength: 1,
            maxLength: 200,
          }),
          (negation, items) =>
            assert.deepEqual(unexcusedRiskyWords(`local writes only; ${negation} ${items.join(', ')}`), []),
        ),
      ));

    it('a risky word after a clause end is never excused by the negation before it', () =>
      fc.assert(
        fc.property(
          fc.constantFrom(...NEGATIONS),
          fc.array(fc.constantFrom(...FILLER), { maxLength: 20 }),
          fc.constantFrom(...ENDS),
          fc.array(fc.constantFrom('push', 'to', 'the', 'staging'), { maxLength: 5 }),
          fc.constantFrom(...RISKY),
          (negation, before, end, gap, word) =>
            assert.deepEqual(unexcusedRiskyWords([negation, ...before, end, ...gap, word].join(' ')), [word]),
        ),
      ));

    it('a risky word with no negation before it is never excused (as the original refuses it)', () =>
      fc.assert(
        fc.property(
          fc.array(fc.constantFrom(...FILLER, ...ENDS), { maxLength: 20 }),
          fc.constantFrom(...RISKY),
          (before, word) => assert.deepEqual(unexcusedRiskyWords([...before, word].join(' ')), [word]),
        ),
      ));
  });
});
