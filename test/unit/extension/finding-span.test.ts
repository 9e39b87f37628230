import assert from 'node:assert/strict';
import fc from 'fast-check';
import { findNodeAtLocation, parseTree, type Node } from 'jsonc-parser';
import { validateContractText } from '../../../src/app/contract/operations';
import { locateFindings } from '../../../src/extension/contract/findingSpan';

/** The per-finding walk the one-pass locator replaced: the reference for its answers. */
function oneByOne(tree: Node, path: (string | number)[], code: string) {
  const node = findNodeAtLocation(tree, path);
  if (node) {
    const key = node.parent?.type === 'property' ? node.parent.children?.[0] : undefined;
    const marked = code === 'unknown-key' && key ? key : node;
    return { offset: marked.offset, length: marked.length };
  }
  for (let depth = path.length - 1; depth >= 0; depth--) {
    const ancestor = findNodeAtLocation(tree, path.slice(0, depth));
    if (ancestor) return { offset: ancestor.offset, length: 1 };
  }
  return { offset: tree.offset, length: 1 };
}

describe('contract editor: locating findings in one pass', () => {
  const text = JSON.stringify(
    {
      purpose: 'p',
      quality_rubric: [{ dimension: 'd', weight: 1 }, { dimension: 'e' }],
      dup: 1,
      x: { y: [1, 2] },
    },
    null,
    2,
  ).replace('"dup": 1', '"dup": 1, "dup": 2');
  const tree = parseTree(text)!;

  it('agrees with findNodeAtLocation for present, absent and key findings', () => {
    const findings = [
      { path: ['purpose'], code: 'placeholder' },
      { path: ['quality_rubric', 0, 'weight'], code: 'bad' },
      { path: ['quality_rubric', 1, 'weight'], code: 'missing-field' },
      { path: ['quality_rubric', 7], code: 'x' },
      { path: ['dup'], code: 'unknown-key' },
      { path: ['x', 'y', 1], code: 'x' },
      { path: ['nowhere', 'deep'], code: 'x' },
      { path: [], code: 'x' },
    ];
    const spans = locateFindings(tree, findings);
    findings.forEach((f, i) =>
      assert.deepEqual(spans[i], oneByOne(tree, f.path, f.code), JSON.stringify(f.path)),
    );
  });

  it('agrees with findNodeAtLocation on random paths into random JSON', () => {
    const segment = fc.oneof(fc.constantFrom('a', 'b', 'c'), fc.nat(3));
    fc.assert(
      fc.property(
        fc.jsonValue({ maxDepth: 4 }),
        fc.array(fc.array(segment, { maxLength: 4 }), { maxLength: 8 }),
        (value, paths) => {
          const t = parseTree(JSON.stringify(value));
          if (!t) return;
          const findings = paths.map((path) => ({ path, code: 'x' }));
          const spans = locateFindings(t, findings);
          paths.forEach((path, i) => assert.deepEqual(spans[i], oneByOne(t, path, 'x')));
        },
      ),
      { numRuns: 300 },
    );
  });

  it('a contract over the CLI\'s 1 MiB cap is one "too large" finding, never parsed', () => {
    const big = `{"purpose": "${'x'.repeat(1024 * 1024)}"}`;
    const outcome = validateContractText('/tmp', big, 'big.loop-contract.json');
    assert.equal(outcome.exitCode, 2);
    assert.equal(outcome.findings.length, 1);
    assert.match(
      outcome.findings[0]!.message,
      /^big\.loop-contract\.json: contract file is \d+ bytes, over the 1048576-byte limit$/,
    );
    assert.equal(outcome.findings[0]!.code, 'contract-too-large');
  });
});
