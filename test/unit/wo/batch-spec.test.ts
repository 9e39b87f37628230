// The original's parallel-batch spec (T1–T17b), ported case by case with its fixture shape
// (`id: wo-NN`, flow-list `blocked_by: [ local:demo#wo-NN ]`, a `## Files to touch` section),
// through the CLI as a child process. (T14, a grep of the original script's source for writes,
// becomes T14b's runtime check here: the folder is byte-identical after a run.)
import assert from 'node:assert/strict';
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { runCli, tempRoot, type CliResult } from '../helpers/cli';

let tmp: string;
let n = 0;
function dir(): string {
  n += 1;
  const d = join(tmp, `t${n}`);
  mkdirSync(d, { recursive: true });
  return d;
}
function wo(d: string, id: string, status: string, blockedBy: string[], ...files: string[]): void {
  const bb = blockedBy.length ? `[${blockedBy.map((dep) => ` local:demo#${dep}`).join(',')} ]` : '[]';
  const section = files.length ? `## Files to touch\n\n${files.map((f) => `- \`${f}\``).join('\n')}\n\n` : '';
  writeFileSync(
    join(d, `${id}-x.md`),
    `---\nid: ${id}\nstatus: ${status}\nblocked_by: ${bb}\ntitle: t\n---\n\n${section}## Done =\n- ok\n`,
  );
}
const haltMarker = (d: string, id: string) =>
  writeFileSync(
    join(d, `${id}.HALT`),
    JSON.stringify({ wo_id: id, reason: 'x', at: '2026-01-01T00:00:00Z' }),
  );
const batch = (d: string, ...extra: string[]) => runCli(['wo', 'parallel-batch', d, ...extra]);
const batched = (r: CliResult): string[] => r.json.batch.map((b: { wo_id: string }) => b.wo_id);
const deferred = (r: CliResult, id: string) => r.json.deferred.find((x: { wo_id: string }) => x.wo_id === id);

describe('wo parallel-batch: the original spec T1–T17b', () => {
  before(() => {
    tmp = tempRoot('wo-batch-spec-');
  });

  it('T1 two work orders in disjoint folders co-batch', () => {
    const d = dir();
    wo(d, 'wo-01', 'ready', [], 'src/a/foo.php');
    wo(d, 'wo-02', 'ready', [], 'src/b/bar.php');
    const r = batch(d);
    assert.equal(r.code, 0);
    assert.deepEqual(batched(r), ['wo-01', 'wo-02']);
    assert.equal(r.json.ready_total, 2);
  });

  it('T2 the same file: the second is deferred, conflicts_with the first', () => {
    const d = dir();
    wo(d, 'wo-01', 'ready', [], 'src/a/foo.php');
    wo(d, 'wo-02', 'ready', [], 'src/a/foo.php');
    const r = batch(d);
    assert.deepEqual(batched(r), ['wo-01']);
    assert.deepEqual(deferred(r, 'wo-02'), {
      wo_id: 'wo-02',
      conflicts_with: ['wo-01'],
      reason: 'file_overlap',
    });
  });

  it('T3 a same-folder glob overlaps; T4 a folder overlaps the files below it; T4b src does not cover src-other', () => {
    let d = dir();
    wo(d, 'wo-01', 'ready', [], 'src/a/*.php');
    wo(d, 'wo-02', 'ready', [], 'src/a/foo.php');
    assert.equal(deferred(batch(d), 'wo-02').reason, 'file_overlap');
    d = dir();
    wo(d, 'wo-01', 'ready', [], 'src/');
    wo(d, 'wo-02', 'ready', [], 'src/foo/bar.php');
    assert.equal(deferred(batch(d), 'wo-02').reason, 'file_overlap');
    d = dir();
    wo(d, 'wo-01', 'ready', [], 'src/foo.php');
    wo(d, 'wo-02', 'ready', [], 'src-other/x.php');
    assert.deepEqual(batched(batch(d)), ['wo-01', 'wo-02']);
  });

  it('T5 a work order without files among others is deferred no_files_declared and warned; the others batch', () => {
    const d = dir();
    wo(d, 'wo-01', 'ready', [], 'src/a/foo.php');
    wo(d, 'wo-02', 'ready', []);
    wo(d, 'wo-03', 'ready', [], 'src/b/bar.php');
    const r = batch(d);
    assert.deepEqual(batched(r), ['wo-01', 'wo-03']);
    assert.deepEqual(deferred(r, 'wo-02'), {
      wo_id: 'wo-02',
      conflicts_with: ['wo-01'],
      reason: 'no_files_declared',
    });
    assert.ok(r.json.warnings.some((w: string) => w.includes('wo-02')));
  });

  it('T5b a work order without files, alone, runs solo and is still warned', () => {
    const d = dir();
    wo(d, 'wo-09', 'ready', []);
    const r = batch(d);
    assert.deepEqual(r.json.batch, [{ wo_id: 'wo-09', files: [] }]);
    assert.equal(r.json.warnings.length, 1);
  });

  it('T6 a terminal work order (HALT marker) is neither batched nor deferred', () => {
    const d = dir();
    wo(d, 'wo-01', 'ready', [], 'src/a/foo.php');
    wo(d, 'wo-02', 'ready', [], 'src/b/bar.php');
    haltMarker(d, 'wo-02');
    const r = batch(d);
    assert.equal(r.json.ready_total, 1);
    assert.deepEqual(batched(r), ['wo-01']);
    assert.equal(deferred(r, 'wo-02'), undefined);
  });

  it('T7 blocked on an unfinished dependency: not eligible; T8 blocked with every dependency done: eligible (done itself is not)', () => {
    let d = dir();
    wo(d, 'wo-04', 'ready', [], 'src/a/foo.php');
    wo(d, 'wo-05', 'blocked', ['wo-04'], 'src/b/bar.php');
    let r = batch(d);
    assert.deepEqual(batched(r), ['wo-04']);
    assert.equal(deferred(r, 'wo-05'), undefined);
    assert.equal(r.json.ready_total, 1);
    d = dir();
    wo(d, 'wo-06', 'done', [], 'src/a/foo.php');
    wo(d, 'wo-07', 'blocked', ['wo-06'], 'src/b/bar.php');
    r = batch(d);
    assert.deepEqual(batched(r), ['wo-07']);
    assert.equal(r.json.ready_total, 1);
  });

  it('T9 --max 1: a batch of one, the disjoint other deferred batch_full', () => {
    const d = dir();
    wo(d, 'wo-01', 'ready', [], 'src/a/foo.php');
    wo(d, 'wo-02', 'ready', [], 'src/b/bar.php');
    const r = batch(d, '--max', '1');
    assert.deepEqual(batched(r), ['wo-01']);
    assert.deepEqual(deferred(r, 'wo-02'), { wo_id: 'wo-02', conflicts_with: [], reason: 'batch_full' });
    assert.equal(r.json.max, 1);
  });

  it('T10 an empty folder: an empty batch, exit 0, the full key set', () => {
    const d = dir();
    const r = batch(d);
    assert.equal(r.code, 0);
    assert.deepEqual(r.json, {
      schema_version: '1.0',
      work_orders_dir: d,
      ready_total: 0,
      max: 8,
      batch: [],
      deferred: [],
      warnings: [],
    });
  });

  it('T11 no folder argument, or a missing folder: exit 2 with {error}', () => {
    const none = runCli(['wo', 'parallel-batch']);
    assert.equal(none.code, 2);
    assert.deepEqual(none.json, { error: 'missing_work_orders_dir' });
    const missing = batch(join(tmp, 'nope'));
    assert.equal(missing.code, 2);
    assert.deepEqual(missing.json, { error: 'work_orders_dir_missing' });
    assert.equal(missing.stderr, 'wo-parallel-batch error=work_orders_dir_missing\n');
  });

  it('T12 ascending version order: wo-02 before wo-10; T13 the stderr line', () => {
    let d = dir();
    wo(d, 'wo-10', 'ready', [], 'src/j/j.php');
    wo(d, 'wo-02', 'ready', [], 'src/b/b.php');
    assert.deepEqual(batched(batch(d)), ['wo-02', 'wo-10']);
    d = dir();
    wo(d, 'wo-01', 'ready', [], 'src/a/foo.php');
    wo(d, 'wo-02', 'ready', [], 'src/a/foo.php');
    assert.equal(batch(d).stderr, 'wo-parallel-batch ready=2 batch=1 deferred=1 max=8\n');
  });

  it('T14b read-only: the folder is byte-identical after a run, no HALT written', () => {
    const d = dir();
    wo(d, 'wo-01', 'ready', [], 'src/a/foo.php');
    wo(d, 'wo-02', 'ready', []);
    const snapshot = () =>
      readdirSync(d)
        .sort()
        .map((name) => [name, readFileSync(join(d, name), 'utf8')]);
    const before = snapshot();
    assert.equal(batch(d).code, 0);
    assert.deepEqual(snapshot(), before);
  });

  it('T15/T15b/T16 syntactic variants of one path overlap: ./src/a.php, src/./a.php, src//a.php', () => {
    for (const variant of ['./src/a.php', 'src/./a.php', 'src//a.php']) {
      const d = dir();
      wo(d, 'wo-01', 'ready', [], 'src/a.php');
      wo(d, 'wo-02', 'ready', [], variant);
      const r = batch(d);
      assert.deepEqual(batched(r), ['wo-01'], variant);
      assert.equal(deferred(r, 'wo-02').reason, 'file_overlap', variant);
    }
  });

  it('T17 a brace glob compares by its literal prefix (overlaps a sibling); T17b but not across folders', () => {
    let d = dir();
    wo(d, 'wo-01', 'ready', [], 'src/c.php');
    wo(d, 'wo-02', 'ready', [], 'src/{a,b}.php');
    assert.equal(deferred(batch(d), 'wo-02').reason, 'file_overlap');
    d = dir();
    wo(d, 'wo-01', 'ready', [], 'lib/x.php');
    wo(d, 'wo-02', 'ready', [], 'src/{a,b}.php');
    assert.deepEqual(batched(batch(d)), ['wo-01', 'wo-02']);
  });

  it('the Files to touch reader: a repeated section adds to the list; a heading ends it; blank spans are dropped', () => {
    const d = dir();
    writeFileSync(
      join(d, 'wo-01-x.md'),
      '---\nid: wo-01\nstatus: ready\n---\n## Files to touch\n- `a.txt`\n- ` `\n##\tNext\n- `not-a-file`\n## Files to touch\n* b.txt and more words\n',
    );
    assert.deepEqual(batch(d).json.batch, [{ wo_id: 'wo-01', files: ['a.txt', 'b.txt'] }]);
  });
});
