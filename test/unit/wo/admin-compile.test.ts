// The human verbs (`wo halt`, `wo clear`, `wo kill`/`unkill`) and the remaining compile kernels
// (`build-graph`, `collect-handle`, `emit-frontmatter`).
import assert from 'node:assert/strict';
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { CLI, childEnv, runCli } from '../helpers/cli';
import { gitHead, makeTask } from './fixture';

function withStdin(args: string[], input: string) {
  const r = spawnSync(process.execPath, [CLI, ...args], { input, env: childEnv(), encoding: 'utf8' });
  let json: unknown;
  try {
    json = JSON.parse(r.stdout);
  } catch {
    json = undefined;
  }
  return { code: r.status, stdout: r.stdout, stderr: r.stderr, json: json as any }; // eslint-disable-line @typescript-eslint/no-explicit-any
}

describe('wo halt / clear / kill', () => {
  it('halt writes the marker, then halts the sidecar; clear keeps the marker as a cleared copy and un-halts', () => {
    const t = makeTask([{ n: 1 }]);
    writeFileSync(join(t.dir, 'wo-01.run.json'), JSON.stringify({ wo: 'wo-01', attempts: 2, halted: false }));
    const h = runCli(['wo', 'halt', t.dir, 'wo-01', '--reason', 'manual_stop']);
    assert.equal(h.code, 0);
    const marker = JSON.parse(readFileSync(join(t.dir, 'wo-01.HALT'), 'utf8'));
    assert.equal(marker.reason, 'manual_stop');
    assert.equal(marker.wo_id, 'wo-01');
    assert.equal(JSON.parse(readFileSync(join(t.dir, 'wo-01.run.json'), 'utf8')).halted, true);
    assert.equal(runCli(['wo', 'reconcile-table', t.dir]).json[0].terminal, true);

    const c = runCli(['wo', 'clear', t.dir, 'wo-01']);
    assert.equal(c.code, 0);
    assert.equal(existsSync(join(t.dir, 'wo-01.HALT')), false);
    const kept = readdirSync(t.dir).filter((n) => n.startsWith('wo-01.HALT.cleared-'));
    assert.equal(kept.length, 1);
    assert.equal(JSON.parse(readFileSync(join(t.dir, kept[0] ?? ''), 'utf8')).reason, 'manual_stop');
    const run = JSON.parse(readFileSync(join(t.dir, 'wo-01.run.json'), 'utf8'));
    assert.equal(run.halted, false);
    assert.equal(run.attempts, 2, 'attempts kept unless --reset-attempts');
    assert.equal(runCli(['wo', 'reconcile-table', t.dir]).json[0].terminal, false);
    const again = runCli(['wo', 'clear', t.dir, 'wo-01']);
    assert.equal(again.code, 1);
    assert.equal(again.json.reason, 'not_halted');
  });

  it('clear --reset-attempts gives a capped work order a fresh cap; bad arguments exit 2', () => {
    const t = makeTask([{ n: 1 }]);
    writeFileSync(
      join(t.dir, 'wo-01.run.json'),
      JSON.stringify({ attempts: 3, halted: true, halt_reason: 'retry_cap_exhausted' }),
    );
    assert.equal(runCli(['wo', 'clear', t.dir, 'wo-01', '--reset-attempts']).code, 0);
    assert.equal(JSON.parse(readFileSync(join(t.dir, 'wo-01.run.json'), 'utf8')).attempts, 0);
    assert.equal(runCli(['wo', 'halt', t.dir, 'wo-01']).code, 2, 'a reason is required');
    assert.equal(runCli(['wo', 'halt', t.dir, '../x', '--reason', 'r']).code, 2);
    assert.equal(runCli(['wo', 'clear', '/nonexistent', 'wo-01']).code, 2);
  });

  it('kill / unkill toggle <task>/.kill', () => {
    const t = makeTask([{ n: 1 }]);
    assert.equal(runCli(['wo', 'kill', t.task]).code, 0);
    assert.ok(existsSync(join(t.task, '.kill')));
    assert.equal(runCli(['wo', 'unkill', t.task]).code, 0);
    assert.equal(existsSync(join(t.task, '.kill')), false);
    assert.equal(runCli(['wo', 'kill', '/nonexistent']).code, 2);
  });

  it('unknown kernels and no kernel exit 2', () => {
    assert.equal(runCli(['wo']).code, 2);
    const r = runCli(['wo', 'explode']);
    assert.equal(r.code, 2);
    assert.match(r.stderr, /unknown kernel "explode"/);
  });
});

describe('wo compile build-graph / collect-handle / emit-frontmatter', () => {
  it('build-graph keeps input order, collapses a same-AC 2-cycle and halts on bigger or cross-AC cycles', () => {
    let r = withStdin(
      ['wo', 'compile', 'build-graph'],
      JSON.stringify({
        units: [
          { id: 'b', ac: 1, blocked_by: ['a'] },
          { id: 'a', ac: 1 },
          { id: 'c', ac: 2, blocked_by: ['b'] },
        ],
      }),
    );
    assert.equal(r.code, 0);
    assert.deepEqual(
      r.json.units.map((u: { id: string; blocked_by: string[] }) => [u.id, u.blocked_by]),
      [
        ['b', ['a']],
        ['a', []],
        ['c', ['b']],
      ],
    );
    r = withStdin(
      ['wo', 'compile', 'build-graph'],
      JSON.stringify({
        units: [
          { id: 'a', ac: 1, blocked_by: ['b'] },
          { id: 'b', ac: 1, blocked_by: ['a'] },
          { id: 'c', ac: 1, blocked_by: ['a'] },
        ],
      }),
    );
    assert.equal(r.json.collapsed, 1);
    assert.deepEqual(r.json.units[0], {
      id: 'a',
      members: ['a', 'b'],
      collapsed_scc: true,
      ac: 1,
      blocked_by: [],
    });
    assert.deepEqual(r.json.units[1].blocked_by, ['a']);
    r = withStdin(
      ['wo', 'compile', 'build-graph'],
      JSON.stringify({
        units: [
          { id: 'a', blocked_by: ['c'] },
          { id: 'b', blocked_by: ['a'] },
          { id: 'c', blocked_by: ['b'] },
        ],
      }),
    );
    assert.equal(r.code, 1);
    assert.equal(r.json.halt_reason, 'uncollapsible_cycle:size_3_exceeds_bound:a,b,c');
    r = withStdin(
      ['wo', 'compile', 'build-graph'],
      JSON.stringify({
        units: [
          { id: 'a', ac: 1, blocked_by: ['b'] },
          { id: 'b', ac: 2, blocked_by: ['a'] },
        ],
      }),
    );
    assert.equal(r.json.halt_reason, 'uncollapsible_cycle:spans_2_acs:a,b');
    assert.equal(
      withStdin(['wo', 'compile', 'build-graph'], JSON.stringify({ units: [{ id: 'a', blocked_by: ['a'] }] }))
        .json.halt_reason,
      'self_dependency:a',
    );
    assert.equal(
      withStdin(['wo', 'compile', 'build-graph'], JSON.stringify({ units: [{ id: 'a' }, { id: 'a' }] })).json
        .halt_reason,
      'duplicate_unit_id:a',
    );
    assert.equal(
      withStdin(['wo', 'compile', 'build-graph'], JSON.stringify({ units: [{ id: 'a', blocks: 'b' }] })).json
        .halt_reason,
      'malformed_edge_field:a:blocks',
    );
  });

  it('collect-handle derives the handle from git: checkpoint_after iff the build changed something', () => {
    const t = makeTask([{ n: 1 }], { git: true });
    const before = gitHead(t.worktree);
    let r = runCli([
      'wo',
      'compile',
      'collect-handle',
      t.worktree,
      t.file(1),
      '--checkpoint-before',
      before,
      '--dispatched',
      'true',
    ]);
    assert.equal(r.code, 0);
    assert.deepEqual(Object.keys(r.json), [
      'wo_id',
      'dispatched',
      'override_used',
      'halt_reason',
      'tree',
      'checkpoint_before',
      'checkpoint_after',
      'produced_changes',
      'artifacts',
      'build_returned',
    ]);
    assert.equal(r.json.wo_id, 'local:t#wo-01');
    assert.equal(r.json.checkpoint_after, null);
    assert.equal(r.json.produced_changes, false);
    writeFileSync(join(t.worktree, 'n.txt'), 'n\n');
    execFileSync('git', ['add', '-A'], { cwd: t.worktree });
    execFileSync('git', ['commit', '-qm', 'n'], { cwd: t.worktree });
    r = runCli([
      'wo',
      'compile',
      'collect-handle',
      t.worktree,
      t.file(1),
      '--checkpoint-before',
      before,
      '--build-returned',
      'yes',
    ]);
    assert.equal(r.json.checkpoint_after, gitHead(t.worktree));
    assert.deepEqual(r.json.artifacts, ['n.txt']);
    assert.equal(r.json.build_returned, true);
    r = runCli([
      'wo',
      'compile',
      'collect-handle',
      t.worktree,
      t.file(1),
      '--checkpoint-before',
      '--output=/tmp/x',
    ]);
    assert.equal(r.json.checkpoint_before, null, 'an option-shaped checkpoint is no baseline');
    assert.equal(runCli(['wo', 'compile', 'collect-handle', t.worktree]).code, 2);
  });

  it('emit-frontmatter prints a YAML block from a JSON object; anything else exits 2', () => {
    const r = withStdin(
      ['wo', 'compile', 'emit-frontmatter'],
      JSON.stringify({ id: 'local:t#wo-01', status: 'ready', blocked_by: [] }),
    );
    assert.equal(r.code, 0);
    assert.equal(r.stdout, '---\nid: local:t#wo-01\nstatus: ready\nblocked_by: []\n---\n');
    assert.equal(withStdin(['wo', 'compile', 'emit-frontmatter'], '[1]').code, 2);
    assert.equal(withStdin(['wo', 'compile', 'emit-frontmatter'], '  ').code, 2);
  });
});
