// The `.loop.md` quick fixes as text edits: applying each one makes its finding go away.
import assert from 'node:assert/strict';
import { checkEngineeringMarkdown } from '../../../src/engine/engineering/check';
import { engineeringFixes, type LineEdit } from '../../../src/extension/engineering/engineeringFixes';
import { contractText } from './helpers';

function apply(text: string, edits: LineEdit[]): string {
  const lines = text.split('\n');
  for (const e of [...edits].sort((a, b) => b.line - a.line || b.start - a.start)) {
    const line = lines[e.line] ?? '';
    lines[e.line] = line.slice(0, e.start) + e.text + line.slice(e.end);
  }
  return lines.join('\n');
}

function fixed(text: string, code: string, title: RegExp): string {
  const check = checkEngineeringMarkdown(text, true);
  const finding = check.findings.find((f) => f.code === code);
  assert.ok(finding, `no ${code}`);
  const fixes = engineeringFixes(finding, check.findings, check.spots, text.split('\n'), '\n');
  const fix = fixes.find((f) => title.test(f.title));
  assert.ok(fix, `no fix ${title} among ${fixes.map((f) => f.title).join(', ')}`);
  return apply(text, fix.edits);
}

const codes = (text: string) => checkEngineeringMarkdown(text, true).findings.map((f) => f.code);

describe('engineering: quick fixes for .loop.md', () => {
  it('inserts every absent field from the template, and the result passes', () => {
    const text = 'Objective: keep links alive\nMode: Loop\n';
    assert.deepEqual(codes(fixed(text, 'missing-field:budget', /^Insert the 20 missing field/)), []);
  });

  it('fills an empty field in place', () => {
    const text = contractText({ owner: 'TBD' });
    assert.deepEqual(codes(fixed(text, 'missing-field:owner', /^Fill in Owner/)), []);
  });

  it('offers the four modes and three topologies', () => {
    assert.deepEqual(
      codes(fixed(contractText({ mode: 'Sprint' }), 'invalid-mode', /^Mode: AutoResearch$/)),
      [],
    );
    assert.deepEqual(
      codes(fixed(contractText({ topology: 'swarm' }), 'invalid-topology', /^Topology: maker-checker$/)),
      [],
    );
  });

  it('adds approval and rollback to a risky boundary, and an integration gate to recovery', () => {
    const risky = contractText({ 'permission boundary': 'May publish the package' });
    assert.deepEqual(codes(fixed(risky, 'risky-boundary-needs-approval-rollback', /approval/)), []);
    const workers = contractText({ topology: 'manager-workers' });
    assert.deepEqual(codes(fixed(workers, 'manager-workers-needs-integration-gate', /integration gate/)), []);
  });
});
