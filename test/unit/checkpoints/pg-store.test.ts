// Checkpoints with the ledger in a PostgreSQL store (a real throwaway cluster, the CLI as child
// processes): the record's `checkpoint` key lands in the store's iteration row, the commit and its
// ref in the workspace's repository; list, diff, restore and prune read the records from the store;
// another machine's workspace names a checkpoint it does not hold. The user's git state is
// asserted untouched around every command that takes a checkpoint.
import { strict as assert } from 'node:assert';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Client } from 'pg';
import { withStoreDatabase } from '../helpers/pg-cluster';
import { cli, tempRoot } from '../helpers/pg-cli';
import { sampleContract, writeJson, type CliResult } from '../helpers/cli';
import { assertGitUntouched, sh } from './repo';

describe('checkpoints on a PostgreSQL store', function () {
  this.timeout(300_000);
  const db = withStoreDatabase('checkpoints');
  let url: string;

  before(async () => {
    url = db.url;
    const migrated = cli(['store', 'migrate', '--root', tempRoot('m'), '--store', url]);
    assert.equal(migrated.code, 0, migrated.stderr);
  });

  const rowsOf = async (project: string, session: string) => {
    const client = new Client(url);
    await client.connect();
    try {
      const r = await client.query<{ n: number; record: string }>(
        'SELECT n, record FROM loop_ledger_iterations WHERE project = $1 AND session = $2 ORDER BY n',
        [project, session],
      );
      return r.rows.map((row) => ({ n: row.n, record: JSON.parse(row.record) }));
    } finally {
      await client.end();
    }
  };

  /** A git workspace (one commit) whose CLI talks to the store under `project`. */
  const workspace = (project: string, contract: Record<string, unknown> = {}) => {
    const root = tempRoot('ws');
    mkdirSync(root);
    sh(root, ['init', '-q', '-b', 'main']);
    writeFileSync(join(root, 'a.txt'), 'one\n');
    writeFileSync(join(root, '.gitignore'), 'ignored.log\n');
    sh(root, ['add', 'a.txt', '.gitignore']);
    sh(root, ['commit', '-qm', 'init']);
    const run = (sub: string, ...args: string[]): CliResult =>
      cli([sub, '--root', root, '--session', 's1', '--store', url, '--project', project, ...args]);
    const contractFile = writeJson(
      join(tempRoot('c'), 'contract.json'),
      sampleContract({ iteration_limit: 50, ...contract }),
    );
    return { root, run, contractFile, write: (p: string, t: string) => writeFileSync(join(root, p), t) };
  };

  it('iterate --checkpoint: the key in the store row, the commit and ref in the repository, no ledger file', async () => {
    const ws = workspace('p-take');
    assert.equal(ws.run('open', '--contract', ws.contractFile).code, 0);
    ws.write('a.txt', 'two\n');
    ws.write('b.txt', 'new\n');
    const r = assertGitUntouched(ws.root, () =>
      ws.run('iterate', '--outcome', 'continue', '--checkpoint', '--json'),
    );
    assert.equal(r.code, 0, r.stderr);
    const cp = r.json.checkpoint;
    assert.equal(cp.ref, 'refs/loop-ledger/s1/1-1');
    assert.equal(sh(ws.root, ['rev-parse', cp.ref]).trim(), cp.commit);
    assert.equal(sh(ws.root, ['show', `${cp.commit}:b.txt`]), 'new\n');
    const rows = await rowsOf('p-take', 's1');
    assert.deepEqual(
      rows.map((x) => x.record.checkpoint),
      [cp],
    );
    assert.ok(!existsSync(join(ws.root, '.loop', 'ledgers')), 'nothing written to the ledger files');
    // A plain iterate takes none (the contract does not ask); --checkpoint with --no-checkpoint is refused.
    assert.equal(ws.run('iterate', '--outcome', 'continue').code, 0);
    assert.equal((await rowsOf('p-take', 's1'))[1]?.record.checkpoint, undefined);
    const both = ws.run('iterate', '--outcome', 'continue', '--checkpoint', '--no-checkpoint');
    assert.equal(both.code, 2);
  });

  it('a contract saying checkpoint: true takes one by default; --no-checkpoint opts out', async () => {
    const ws = workspace('p-contract', { checkpoint: true });
    assert.equal(ws.run('open', '--contract', ws.contractFile).code, 0);
    ws.write('a.txt', 'by contract\n');
    const r = assertGitUntouched(ws.root, () => ws.run('iterate', '--outcome', 'continue', '--json'));
    assert.equal(r.code, 0, r.stderr);
    assert.equal(r.json.checkpoint.ref, 'refs/loop-ledger/s1/1-1');
    const off = assertGitUntouched(ws.root, () =>
      ws.run('iterate', '--outcome', 'continue', '--no-checkpoint', '--json'),
    );
    assert.equal(off.code, 0, off.stderr);
    assert.equal(off.json.checkpoint, undefined);
    const rows = await rowsOf('p-contract', 's1');
    assert.deepEqual(
      rows.map((x) => x.record.checkpoint?.commit ?? null),
      [r.json.checkpoint.commit, null],
    );
    assert.deepEqual(
      sh(ws.root, ['for-each-ref', '--format=%(refname)', 'refs/loop-ledger']).trim().split('\n'),
      ['refs/loop-ledger/s1/1-1'],
    );
  });

  it('list, diff, restore (a pause row with the safety checkpoint) and prune, on the store', async () => {
    const ws = workspace('p-use');
    assert.equal(ws.run('open', '--contract', ws.contractFile).code, 0);
    ws.write('a.txt', 'v1\n');
    const one = assertGitUntouched(ws.root, () =>
      ws.run('iterate', '--outcome', 'continue', '--checkpoint', '--json'),
    );
    assert.equal(one.code, 0, one.stderr);
    ws.write('a.txt', 'v2\n');
    ws.write('added.txt', 'later\n');
    ws.write('ignored.log', 'keep me\n');
    const two = assertGitUntouched(ws.root, () =>
      ws.run('iterate', '--outcome', 'continue', '--checkpoint', '--json'),
    );
    assert.equal(two.code, 0, two.stderr);

    const list = ws.run('checkpoint', 'list', '--json');
    assert.equal(list.code, 0, list.stderr);
    assert.deepEqual(
      list.json.checkpoints.map((c: { n: number; present: boolean }) => [c.n, c.present]),
      [
        [1, true],
        [2, true],
      ],
    );
    const diff = ws.run('checkpoint', 'diff', '--from', '1', '--to', '2');
    assert.equal(diff.code, 0, diff.stderr);
    assert.match(diff.stdout, /-v1\n\+v2/);
    assert.match(diff.stdout, /\+\+\+ b\/added\.txt/);

    // The brief from the two checkpoints on the store: the packet the piped route gives.
    const [c1, c2] = [one.json.checkpoint.commit as string, two.json.checkpoint.commit as string];
    const scratch = tempRoot('brief');
    mkdirSync(scratch);
    const file = (name: string, text: string) => {
      writeFileSync(join(scratch, name), text);
      return join(scratch, name);
    };
    const stat = sh(ws.root, ['diff', '--stat=10000,9000', '--no-renames', '--end-of-options', c1, c2, '--']);
    const suite = file('suite.txt', '3 passing\n');
    const piped = ws.run(
      'brief',
      '--diff-file',
      file('change.diff', diff.stdout),
      '--change-scope',
      file('stat.txt', stat),
      '--verification-file',
      suite,
      '--json',
    );
    assert.equal(piped.code, 0, piped.stderr);
    const direct = ws.run(
      'brief',
      '--from-checkpoint',
      '1',
      '--to-checkpoint',
      '2',
      '--verification-file',
      suite,
      '--json',
    );
    assert.equal(direct.code, 0, direct.stderr);
    assert.deepEqual(direct.json, piped.json);
    assert.deepEqual(direct.json.scope.diff_paths, ['a.txt', 'added.txt']);
    const missing = ws.run(
      'brief',
      '--from-checkpoint',
      '1',
      '--to-checkpoint',
      '9',
      '--verification-file',
      suite,
    );
    assert.equal(missing.code, 2, missing.stderr);
    assert.match(missing.stderr, /iteration 9 has no checkpoint/);

    const dry = ws.run('checkpoint', 'restore', '--iteration', '1', '--dry-run', '--json');
    assert.equal(dry.code, 0, dry.stderr);
    assert.deepEqual([dry.json.write, dry.json.remove], [['a.txt'], ['added.txt']]);
    assert.equal((await rowsOf('p-use', 's1')).length, 2, 'a dry run records nothing');

    const before = sh(ws.root, ['for-each-ref', '--format=%(objectname) %(refname)', 'refs/heads']);
    const restored = ws.run('checkpoint', 'restore', '--iteration', '1', '--json');
    assert.equal(restored.code, 0, restored.stderr);
    assert.equal(readFileSync(join(ws.root, 'a.txt'), 'utf8'), 'v1\n');
    assert.ok(!existsSync(join(ws.root, 'added.txt')));
    assert.equal(readFileSync(join(ws.root, 'ignored.log'), 'utf8'), 'keep me\n');
    assert.equal(sh(ws.root, ['for-each-ref', '--format=%(objectname) %(refname)', 'refs/heads']), before);
    assert.equal(restored.json.recorded, 3);
    const rows = await rowsOf('p-use', 's1');
    const pause = rows[2]?.record;
    assert.equal(pause.outcome, 'pause');
    assert.equal(pause.checkpoint.ref, 'refs/loop-ledger/s1/1-3');
    assert.equal(restored.json.safety_ref, pause.checkpoint.ref);
    // The safety checkpoint holds the workspace as it was: restoring it undoes the restore.
    assert.equal(sh(ws.root, ['show', `${pause.checkpoint.commit}:added.txt`]), 'later\n');
    const resumed = ws.run('resume');
    assert.equal(resumed.code, 0, resumed.stderr);
    const undo = ws.run('checkpoint', 'restore', '--iteration', '3', '--json');
    assert.equal(undo.code, 0, undo.stderr);
    assert.equal(readFileSync(join(ws.root, 'a.txt'), 'utf8'), 'v2\n');
    assert.equal(readFileSync(join(ws.root, 'added.txt'), 'utf8'), 'later\n');

    const pruned = assertGitUntouched(ws.root, () => ws.run('checkpoint', 'prune', '--keep', '1', '--json'));
    assert.equal(pruned.code, 0, pruned.stderr);
    assert.deepEqual(pruned.json.kept, ['refs/loop-ledger/s1/1-4']);
    const after = ws.run('checkpoint', 'list', '--json');
    assert.deepEqual(
      after.json.checkpoints.map((c: { n: number; present: boolean }) => [c.n, c.present]),
      [
        [1, false],
        [2, false],
        [3, false],
        [4, true],
      ],
    );
    assert.ok(!existsSync(join(ws.root, '.loop', 'ledgers')), 'nothing written to the ledger files');
  });

  it('on another machine, a checkpoint whose commit is not in its repository is a clear error naming it', () => {
    const here = workspace('p-two');
    const there = workspace('p-two');
    assert.equal(here.run('open', '--contract', here.contractFile).code, 0);
    here.write('a.txt', 'here\n');
    const taken = here.run('iterate', '--outcome', 'continue', '--checkpoint', '--json');
    assert.equal(taken.code, 0, taken.stderr);
    const commit = taken.json.checkpoint.commit as string;
    // The other machine sees the record through the store, not the commit.
    const list = there.run('checkpoint', 'list', '--json');
    assert.equal(list.code, 0, list.stderr);
    assert.deepEqual(
      list.json.checkpoints.map((c: { commit: string; present: boolean }) => [c.commit, c.present]),
      [[commit, false]],
    );
    for (const args of [
      ['diff', '--iteration', '1'],
      ['restore', '--iteration', '1'],
    ]) {
      const r = assertGitUntouched(there.root, () => there.run('checkpoint', ...args));
      assert.equal(r.code, 3, r.stderr);
      assert.ok(r.stderr.includes(commit), r.stderr);
      assert.match(r.stderr, /not in this repository/);
      assert.equal(r.stderr.trim().split('\n').length, 1, r.stderr);
    }
    // Its own checkpoint lands in the same session, numbered after the first machine's.
    there.write('a.txt', 'there\n');
    const own = assertGitUntouched(there.root, () =>
      there.run('iterate', '--outcome', 'continue', '--checkpoint', '--json'),
    );
    assert.equal(own.code, 0, own.stderr);
    assert.equal(own.json.checkpoint.ref, 'refs/loop-ledger/s1/1-2');
    assert.equal(sh(there.root, ['show', `${own.json.checkpoint.commit}:a.txt`]), 'there\n');
  });
});
