import assert from 'node:assert/strict';
import { checkEngineeringMarkdown } from '../../../src/engine/engineering/check';
import { engineeringSkeleton } from '../../../src/extension/engineering/engineeringSkeleton';

describe('engineering: New Contract skeleton', () => {
  it('writes all 22 fields empty, so each is listed once as missing', () => {
    const findings = checkEngineeringMarkdown(engineeringSkeleton('nightly'), true).findings;
    assert.equal(findings.length, 22);
    assert.ok(findings.every((f) => f.code.startsWith('missing-field:') && f.line !== null));
  });
});
