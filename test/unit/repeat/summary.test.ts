import assert from 'node:assert/strict';
import { concernsOf, settleSignal, similarInSubstance, summaryTag } from '../../../src/engine/repeat/summary';

describe('repeat: summaries (settle phrases, similarity, tags)', () => {
  const positive: string[] = [
    'Analysis complete. No recommendations.',
    'no findings',
    'Nothing to change here.',
    'Settled: the module is well-structured.',
    'All done — 0 edits were needed this pass.',
    '{"findings": [], "recommendations": []}',
    '{"recommendations": [], "summary": "clean"}',
    'Findings: none\nChanges: none\nDead code: 0',
  ];
  const ambiguous: string[] = [
    'done.',
    'Done',
    'DONE!',
    '',
    'Applied 3 recommendations.',
    'Done; 2 recommendations deferred to a later pass.',
    'No recommendations applied, 1 pending review.',
    '{"findings": ["unused export"], "recommendations": []}',
    '{"status": "ok"}',
    '{"findings": "none"}',
    'Findings: 2\nChanges: none',
    'verification failed: nothing to change landed',
  ];
  for (const text of positive) {
    it(`positive: ${JSON.stringify(text)}`, () =>
      assert.equal(settleSignal(text).positive, true, settleSignal(text).reason));
  }
  for (const text of ambiguous) {
    it(`not positive: ${JSON.stringify(text)}`, () => assert.equal(settleSignal(text).positive, false));
  }

  it('similar in substance: same content words despite numbers, case and punctuation', () => {
    assert.ok(
      similarInSubstance(
        'Extract early-return style — clearer for extension (3 sites).',
        'extract early-return style: clearer for extension, 4 sites',
      ),
    );
    assert.ok(
      !similarInSubstance(
        'Extract early-return style; clearer for extension',
        'Rewrote formatPath as a ternary: more compact',
      ),
    );
    assert.ok(similarInSubstance('', ''));
    assert.ok(!similarInSubstance('', 'something'));
  });

  it('the Jaccard threshold is 0.5 exactly', () => {
    // {alpha beta gamma delta} vs {alpha beta gamma epsilon}: 3 / 5 = 0.6 → similar
    assert.ok(similarInSubstance('alpha beta gamma delta', 'alpha beta gamma epsilon'));
    // {alpha beta} vs {alpha gamma}: 1 / 3 → not similar
    assert.ok(!similarInSubstance('alpha beta', 'alpha gamma'));
    // {alpha beta gamma} vs {alpha beta delta epsilon}: 2 / 5 = 0.4 → not similar
    assert.ok(!similarInSubstance('alpha beta gamma', 'alpha beta delta epsilon'));
    // {alpha beta} vs {alpha beta gamma delta}: 2 / 4 = 0.5 → similar
    assert.ok(similarInSubstance('alpha beta', 'alpha beta gamma delta'));
  });

  it('concerns come only from a structured summary', () => {
    assert.deepEqual(concernsOf('{"concerns": ["readability", " unused-param ", "readability"]}'), [
      'readability',
      'unused-param',
    ]);
    assert.equal(concernsOf('readability'), null);
    assert.equal(concernsOf('{"findings": []}'), null);
  });

  it('tags: first line, or counts of a structured summary', () => {
    assert.equal(summaryTag('\n  Applied 3 edits\nmore'), 'Applied 3 edits');
    assert.equal(
      summaryTag('{"summary": "pass 2", "findings": [1], "recommendations": []}'),
      'pass 2 — findings: 1, recommendations: 0',
    );
    assert.equal(summaryTag(''), '(no summary)');
    assert.equal(summaryTag('x'.repeat(300)).length, 120);
  });
});
