// Risk tiering's security globs now match with the harness's fnmatch (one whole-path glob in the
// product). Property: on every glob the former risk converter handled cleanly — `*`, `?`,
// literals, `[set]`, `[!set]` and ascending ranges — both say the same of every path.
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { fnmatchRegExp } from '../../../src/engine/run/fnmatch';
import { classifyRisk } from '../../../src/engine/workorders/risk';
import { RISK_RULES } from '../../../src/engine/workorders/risk-rules';

/** The converter risk tiering used before, kept here as the reference it must still agree with. */
function formerRiskGlob(glob: string): RegExp {
  let out = '';
  for (let i = 0; i < glob.length; i += 1) {
    const c = glob[i] ?? '';
    if (c === '*') out += '.*';
    else if (c === '?') out += '.';
    else if (c === '[') {
      const close = glob.indexOf(']', i + 1);
      if (close < 0) out += '\\[';
      else {
        const body = glob
          .slice(i + 1, close)
          .replace(/^!/, '^')
          .replace(/\\/g, '\\\\');
        out += `[${body}]`;
        i = close;
      }
    } else out += c.replace(/[.+^${}()|\\]/g, '\\$&');
  }
  return new RegExp(`^${out}$`);
}

const letter = fc.constantFrom('a', 'b', 'c', 'd');
const range = fc.tuple(letter, letter).map(([x, y]) => (x <= y ? `${x}-${y}` : `${y}-${x}`));
const classGlob = fc
  .tuple(fc.boolean(), fc.array(fc.oneof(letter, range), { minLength: 1, maxLength: 3 }))
  .map(([negated, parts]) => `[${negated ? '!' : ''}${parts.join('')}]`);
const piece = fc.oneof(
  fc.constantFrom('*', '?', '/', '.', '-', 'x', '+', '(', '$', '^', ']'),
  letter,
  classGlob,
);
const glob = fc.array(piece, { maxLength: 7 }).map((parts) => parts.join(''));
const path = fc
  .array(fc.constantFrom('a', 'b', 'c', 'd', 'x', '/', '.', '-', '+', '(', '$', '^', ']', '[', 'é'), {
    maxLength: 10,
  })
  .map((chars) => chars.join(''));

describe('risk tiering globs: one glob with the harness', () => {
  it('fnmatch agrees with the former risk glob on every well-formed pattern and path', () => {
    fc.assert(
      fc.property(glob, fc.array(path, { minLength: 1, maxLength: 8 }), (g, paths) => {
        const before = formerRiskGlob(g);
        const after = fnmatchRegExp(g);
        for (const p of paths) assert.equal(after.test(p), before.test(p), `${g} on ${JSON.stringify(p)}`);
      }),
      { numRuns: 2000 },
    );
  });

  it('the built-in security globs tier the same paths as before', () => {
    const paths = ['src/auth/login.ts', 'config/.env.local', 'a/b/c.pem', 'README.md', 'lib/x.key', '.envrc'];
    for (const p of paths)
      for (const g of RISK_RULES.security_globs)
        assert.equal(fnmatchRegExp(g).test(p), formerRiskGlob(g).test(p), `${g} on ${p}`);
  });

  it('a rule with a descending range is an empty class now, not a crash (fail-closed still holds)', () => {
    assert.throws(() => formerRiskGlob('[z-a]*'));
    const rules = { ...RISK_RULES, security_globs: ['[z-a]*', '*secret*'] };
    const r = classifyRisk({ files: ['src/secret.ts'], gateFloor: 'tests', collapsedScc: false }, rules);
    assert.equal(r.gates_recommended.includes('security'), true);
  });
});
