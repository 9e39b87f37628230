// Packet → view-model: what the critic-brief panel shows, derived from the engine's packet alone.
import * as assert from 'node:assert/strict';
import { brief } from '../../src/engine/brief';
import { isRefusal } from '../../src/engine/refusal';
import type { Ledger, RubricDimension } from '../../src/engine/types';
import { splitDiff } from '../../src/shared/diff-files';
import type { PacketData, PanelState } from '../../src/shared/protocol';
import { INITIAL_EXPANDED_LINES, toViewModel } from '../../webview/view-model';

const rubric: RubricDimension[] = [
  {
    dimension: 'coverage',
    evidence_command: 'npm run coverage',
    baseline: 61,
    target: 80,
    weight: 70,
    failure_threshold: 55,
    direction: 'higher-is-better',
    hard_gate: true,
  },
  {
    dimension: 'build-seconds',
    evidence_command: 'npm run build',
    baseline: 38,
    target: 30,
    weight: 30,
    failure_threshold: 45,
    direction: 'lower-is-better',
    hard_gate: false,
    must_not_regress: true,
  },
];

const DIFF = [
  'diff --git a/src/a.ts b/src/a.ts',
  'index 1111111..2222222 100644',
  '--- a/src/a.ts',
  '+++ b/src/a.ts',
  '@@ -1,3 +1,3 @@',
  ' keep',
  '-old line',
  '+new line',
  '+another',
  'diff --git a/docs/new.md b/docs/new.md',
  'new file mode 100644',
  'index 0000000..3333333',
  '--- /dev/null',
  '+++ b/docs/new.md',
  '@@ -0,0 +1,1 @@',
  '+hello',
  'diff --git a/gone.txt b/gone.txt',
  'deleted file mode 100644',
  '--- a/gone.txt',
  '+++ /dev/null',
  '@@ -1 +0,0 @@',
  '--- a line that starts like a header',
  'diff --git a/old name.ts b/new name.ts',
  'similarity index 100%',
  'rename from old name.ts',
  'rename to new name.ts',
  '',
].join('\n');

function ledger(): Ledger {
  return {
    session: 's1',
    contract: { quality_rubric: rubric } as Ledger['contract'],
    status: 'open',
    final_outcome: null,
    iterations: [],
    completed_actions: [],
    resumed: 0,
  };
}

/** A packet as the engine assembles it, so the view-model is tested against the real shape. */
function enginePacket(scope?: string): PacketData {
  const result = brief(ledger(), {
    diff: { path: 'd', text: DIFF },
    verification: { path: 'v', text: '12 passing\n' },
    changeScope: scope === undefined ? undefined : { path: 's', text: scope },
  });
  if (isRefusal(result)) throw new Error(result.findings.map((f) => f.message).join('; '));
  return result.payload as PacketData;
}

function state(packet: PacketData): PanelState {
  return {
    session: 's1',
    change: { kind: 'workingTree', label: 'Working tree vs HEAD', base: 'HEAD', head: ':worktree' },
    packet,
    spent: null,
    canRecord: true,
  };
}

describe('critic brief panel: packet → view-model', () => {
  it('lists one file per diff file with its change kind and line counts', () => {
    const model = toViewModel(state(enginePacket()));
    assert.deepEqual(
      model.files.map((f) => [f.path, f.oldPath, f.change, f.additions, f.deletions]),
      [
        ['src/a.ts', null, 'modified', 2, 1],
        ['docs/new.md', null, 'added', 1, 0],
        ['gone.txt', null, 'deleted', 0, 1],
        ['new name.ts', 'old name.ts', 'renamed', 0, 0],
      ],
    );
    assert.deepEqual(model.totals, { files: 4, additions: 3, deletions: 2 });
    assert.equal(new Set(model.files.map((f) => f.anchor)).size, 4);
  });

  it('keeps each file’s own part of the diff, so the renderer is given exactly that file', () => {
    const [first, second] = toViewModel(state(enginePacket())).files;
    assert.ok(first!.patch.startsWith('diff --git a/src/a.ts'));
    assert.ok(!first!.patch.includes('docs/new.md'));
    assert.ok(second!.patch.includes('+hello'));
  });

  it('shows the rubric with weight shares, direction, gates and the packet’s baseline', () => {
    const packet = enginePacket();
    packet.baseline = { coverage: 64, 'build-seconds': 38, retired: 3 };
    const model = toViewModel(state(packet));
    const [coverage, build] = model.rubric;
    assert.deepEqual(
      [coverage!.share, coverage!.arrow, coverage!.hardGate, coverage!.baseline, coverage!.baselineMeasured],
      ['70%', '↑', true, 64, true],
    );
    assert.deepEqual(
      [build!.share, build!.arrow, build!.mustNotRegress, build!.baselineMeasured],
      ['30%', '↓', true, false],
    );
    assert.deepEqual(model.extraBaseline, [{ dimension: 'retired', value: 3 }]);
  });

  it('marks an unverified scope and highlights nothing as undeclared', () => {
    const model = toViewModel(state(enginePacket()));
    assert.equal(model.scope.provenance, 'unverified');
    assert.equal(model.scope.declared, null);
    assert.match(model.scope.explanation, /^Unverified/);
    assert.ok(model.files.every((f) => !f.undeclared));
  });

  it('highlights diff paths the verified change scope does not declare', () => {
    const stat = ' src/a.ts | 3 ++-\n docs/new.md | 1 +\n 2 files changed, 3 insertions(+), 1 deletion(-)\n';
    const model = toViewModel(state(enginePacket(stat)));
    assert.equal(model.scope.provenance, 'verified');
    assert.deepEqual(model.scope.declared, ['docs/new.md', 'src/a.ts']);
    // The engine reads no path from a header whose names hold spaces (as the original engine
    // does), so the pure rename is in neither list; the panel follows the engine, not a guess.
    assert.deepEqual(
      model.files.filter((f) => f.undeclared).map((f) => f.path),
      ['gone.txt'],
    );
    const marked = model.scope.diffPaths.filter((p) => p.undeclared).map((p) => p.path);
    assert.ok(marked.includes('gone.txt'));
    assert.match(model.scope.explanation, /does not declare/);
  });

  it('carries the asks, the verdict words and the brief id, and no builder summary', () => {
    const packet = enginePacket();
    const model = toViewModel(state(packet));
    assert.equal(model.briefId, packet.brief_id);
    assert.deepEqual(model.verdicts, ['PASS', 'FAIL', 'REVISE', 'REVERT', 'ESCALATE']);
    assert.equal(model.asks.length, 6);
    assert.ok(!JSON.stringify(model).toLowerCase().includes('summary'));
  });

  it('expands small files on open and leaves the rest collapsed past the line budget', () => {
    const big = Array.from({ length: 40 }, (_, i) => {
      const body = Array.from({ length: 100 }, (_, k) => `+line ${k}`).join('\n');
      return `diff --git a/f${i}.txt b/f${i}.txt\n--- a/f${i}.txt\n+++ b/f${i}.txt\n@@ -0,0 +1,100 @@\n${body}`;
    }).join('\n');
    const packet = { ...enginePacket(), diff: big };
    const files = toViewModel(state(packet)).files;
    const expanded = files.filter((f) => f.initiallyExpanded).length;
    assert.equal(expanded, INITIAL_EXPANDED_LINES / 100);
    assert.equal(files.length, 40);
  });

  it('splits a plain `diff -u` diff (no git headers) at its --- / +++ pairs', () => {
    const plain =
      '--- a.txt\t2024-01-01\n+++ a.txt\t2024-01-02\n@@ -1 +1 @@\n-x\n+y\n--- b.txt\n+++ b.txt\n@@ -1 +1 @@\n-p\n+q\n';
    assert.deepEqual(
      splitDiff(plain).map((f) => [f.path, f.additions, f.deletions]),
      [
        ['a.txt', 1, 1],
        ['b.txt', 1, 1],
      ],
    );
  });
});
