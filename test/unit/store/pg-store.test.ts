// The PostgreSQL store through the real CLI against a real throwaway cluster: selection and
// refusals, schema migrations, the same printed JSON as the file store for the same history,
// import/export byte for byte, and hostile text stored as given.
import { strict as assert } from 'node:assert';
import { existsSync, mkdirSync, readdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Client } from 'pg';
import { SCHEMA_LATEST } from '../../../src/store/pg/schema';
import { withStoreDatabase } from '../helpers/pg-cluster';
import { cli, CONTRACT, tempRoot, withoutClock } from '../helpers/pg-cli';

describe('PostgreSQL ledger store', function () {
  this.timeout(300_000);
  const db = withStoreDatabase('pg_store');
  let url: string;

  before(async () => {
    url = db.url;
  });

  const sql = async (text: string, params: unknown[] = []) => {
    const client = new Client(url);
    await client.connect();
    try {
      return await client.query(text, params);
    } finally {
      await client.end();
    }
  };

  it('refuses a database without the schema, migrates it once, and refuses one newer than the tool', async () => {
    const root = tempRoot('w');
    const before = cli(['status', '--session', 's1', '--root', root, '--store', url]);
    assert.equal(before.code, 2, before.stderr);
    assert.match(before.stderr, /no Loop Ledger schema.*store migrate/);
    const first = cli(['store', 'migrate', '--root', root, '--store', url, '--json']);
    assert.equal(first.code, 0, first.stderr);
    assert.deepEqual([first.json.from_version, first.json.to_version], [0, SCHEMA_LATEST]);
    const again = cli(['store', 'migrate', '--root', root, '--store', url, '--json']);
    assert.deepEqual([again.json.from_version, again.json.to_version], [SCHEMA_LATEST, SCHEMA_LATEST]);
    await sql('UPDATE loop_ledger_schema SET version = 99');
    try {
      for (const args of [
        ['status', '--session', 's1'],
        ['store', 'migrate'],
      ]) {
        const r = cli([...args, '--root', root, '--store', url]);
        assert.equal(r.code, 2, r.stderr);
        assert.match(r.stderr, /version 99, newer than this loop-ledger understands.*upgrade loop-ledger/);
      }
    } finally {
      await sql('UPDATE loop_ledger_schema SET version = $1', [SCHEMA_LATEST]);
    }
  });

  it('an unreachable store: one line naming the host, never the password, exit 74, nothing written', () => {
    const root = tempRoot('w');
    const secret = 'pa55-w0rd';
    const dead = `postgres://ledger:${secret}@127.0.0.1:1/ledgers`;
    for (const args of [
      ['open', '--session', 's1', '--contract', CONTRACT],
      ['iterate', '--session', 's1', '--outcome', 'continue'],
      ['status', '--session', 's1', '--json'],
      ['list', '--json'],
    ]) {
      const viaFlag = cli([...args, '--root', root, '--store', dead]);
      const viaEnv = cli([...args, '--root', root], { LOOP_LEDGER_STORE: dead });
      for (const r of [viaFlag, viaEnv]) {
        assert.equal(r.code, 74, r.stderr);
        assert.equal(r.stdout, '');
        assert.equal(r.stderr.trim().split('\n').length, 1, r.stderr);
        assert.match(r.stderr, /cannot reach the PostgreSQL ledger store at 127\.0\.0\.1:1\/ledgers/);
        assert.ok(!r.stderr.includes(secret), r.stderr);
      }
    }
    assert.ok(!existsSync(root), 'nothing is written under the root');
    // A value that is no connection string is refused without echoing it.
    const bad = cli(['status', '--session', 's1', '--root', root, '--store', `mysql://x:${secret}@h/d`]);
    assert.equal(bad.code, 2);
    assert.ok(!bad.stderr.includes(secret), bad.stderr);
  });

  it('the same scenario prints the same JSON on both stores, and the exported ledger is the file store’s', () => {
    const fileRoot = tempRoot('conformance');
    const pgRoot = tempRoot('conformance');
    const store = ['--store', url];
    const steps: string[][] = [
      ['open', '--session', 'alpha', '--contract', CONTRACT],
      ['iterate', '--session', 'alpha', '--outcome', 'continue', '--action', 'a1', '--error', 'E1 boom'],
      ['iterate', '--session', 'alpha', '--outcome', 'continue', '--action', 'a1'],
      ['iterate', '--session', 'alpha', '--outcome', 'revise', '--action', 'a2', '--state', 's-2'],
      [
        'iterate',
        '--session',
        'alpha',
        '--outcome',
        'continue',
        '--measure',
        'todo-count=2',
        '--measure',
        'module-lines=40',
      ],
      ['status', '--session', 'alpha'],
      ['score', '--session', 'alpha', '--measure', 'todo-count=1', '--measure', 'module-lines=30'],
      ['open', '--session', 'alpha', '--contract', CONTRACT],
      ['close', '--session', 'alpha', '--outcome', 'pause'],
      ['resume', '--session', 'alpha'],
      ['close', '--session', 'alpha', '--outcome', 'complete'],
      ['iterate', '--session', 'alpha', '--outcome', 'continue'],
      ['open', '--session', 'alpha', '--contract', CONTRACT],
      ['iterate', '--session', 'alpha', '--outcome', 'continue', '--action', 'a3'],
      ['open', '--session', 'beta', '--contract', CONTRACT],
      ['open', '--session', 'beta', '--contract', CONTRACT, '--force'],
      ['iterate', '--session', 'beta', '--outcome', 'complete'],
      ['status', '--session', 'nobody'],
      ['list'],
    ];
    for (const step of steps) {
      const onFiles = cli([...step, '--root', fileRoot, '--json']);
      const onPg = cli([...step, '--root', pgRoot, '--json', ...store]);
      assert.equal(onPg.code, onFiles.code, `${step.join(' ')}: ${onPg.stderr}`);
      if (step[0] === 'list') {
        // The same listing; each session's `path` names its store (a file, or the database).
        const strip = (r: typeof onFiles) => ({
          ...r.json,
          root: '',
          sessions: r.json.sessions.map((s: Record<string, unknown>) => ({ ...s, path: '' })),
        });
        assert.deepEqual(strip(onPg), strip(onFiles));
        assert.match(
          onPg.json.sessions[0].path,
          new RegExp(`^postgres://127\\.0\\.0\\.1:${db.port}/${db.name}#conformance/alpha$`),
        );
        assert.equal(onPg.json.sessions.length, 2);
      } else {
        assert.equal(withoutClock(onPg.stdout), withoutClock(onFiles.stdout), step.join(' '));
      }
    }
    const out = tempRoot('exported');
    const exported = cli(['store', 'export', '--root', out, '--project', 'conformance', ...store, '--json']);
    assert.equal(exported.code, 0, exported.stderr);
    assert.deepEqual(exported.json.sessions, ['alpha', 'beta']);
    for (const session of ['alpha', 'beta']) {
      const file = readFileSync(join(fileRoot, '.loop', 'ledgers', `${session}.json`), 'utf8');
      const fromPg = readFileSync(join(out, '.loop', 'ledgers', `${session}.json`), 'utf8');
      assert.equal(withoutClock(fromPg), withoutClock(file), session);
    }
  });

  it('import then export gives back byte-identical ledger files', async () => {
    const root = tempRoot('roundtrip');
    cli(['open', '--session', 'r1', '--contract', CONTRACT, '--root', root]);
    for (let i = 0; i < 12; i += 1)
      cli([
        'iterate',
        '--session',
        'r1',
        '--outcome',
        'continue',
        '--action',
        `act-${i}`,
        '--error',
        `e ${i % 3}`,
        '--root',
        root,
      ]);
    cli(['open', '--session', 'r2', '--contract', CONTRACT, '--root', root]);
    cli(['close', '--session', 'r2', '--outcome', 'stop', '--root', root]);
    // A note with a NUL, quotes and a backslash (no argv can carry a NUL: written into the file).
    const r2 = join(root, '.loop', 'ledgers', 'r2.json');
    const note = 'nul\u0000 "quoted" back\\slash \'); DROP TABLE loop_ledger_sessions; --';
    const text = readFileSync(r2, 'utf8');
    assert.ok(text.includes('"close_note": null'));
    writeFileSync(r2, text.replace('"close_note": null', `"close_note": ${JSON.stringify(note)}`));
    const originals = ['r1', 'r2'].map((s) => readFileSync(join(root, '.loop', 'ledgers', `${s}.json`)));
    const imported = cli(['store', 'import', '--root', root, '--store', url, '--json']);
    assert.equal(imported.code, 0, imported.stderr);
    assert.deepEqual(imported.json.sessions, ['r1', 'r2']);
    const twice = cli(['store', 'import', '--root', root, '--store', url, '--json']);
    assert.deepEqual(twice.json.sessions, []);
    assert.equal(twice.json.skipped.length, 2);
    const out = tempRoot('roundtrip');
    const exported = cli(['store', 'export', '--root', out, '--store', url, '--json']);
    assert.equal(exported.code, 0, exported.stderr);
    ['r1', 'r2'].forEach((s, i) =>
      assert.ok(readFileSync(join(out, '.loop', 'ledgers', `${s}.json`)).equals(originals[i] as Buffer), s),
    );
    const rows = await sql(
      `SELECT count(*)::int AS c FROM loop_ledger_iterations WHERE project = 'roundtrip' AND session = 'r1'`,
    );
    assert.equal(rows.rows[0].c, JSON.parse((originals[0] as Buffer).toString('utf8')).iterations.length);
    assert.ok(rows.rows[0].c >= 3);
    // A root whose .loop is a link out of it (as a cloned repository can carry): refused, nothing
    // written through the link.
    const linked = tempRoot('roundtrip');
    const elsewhere = tempRoot('elsewhere');
    mkdirSync(linked, { recursive: true });
    mkdirSync(elsewhere, { recursive: true });
    symlinkSync(elsewhere, join(linked, '.loop'));
    const refused = cli(['store', 'export', '--root', linked, '--project', 'roundtrip', '--store', url]);
    assert.equal(refused.code, 2, refused.stderr);
    assert.match(refused.stderr, /outside the workspace root/);
    assert.deepEqual(readdirSync(elsewhere), []);
  });

  it('hostile notes and ids are stored and printed as given, or refused by the grammar, never executed', async () => {
    const root = tempRoot('hostile');
    const store = ['--root', root, '--store', url];
    const evil = `it's "quoted" \\ back\\slash '); DROP TABLE loop_ledger_iterations; -- $1 %s`;
    assert.equal(cli(['open', '--session', 'h1', '--contract', CONTRACT, ...store]).code, 0);
    const r = cli([
      'iterate',
      '--session',
      'h1',
      '--outcome',
      'continue',
      '--error',
      evil,
      '--state',
      evil,
      '--action',
      evil,
      ...store,
      '--json',
    ]);
    assert.equal(r.code, 0, r.stderr);
    const status = cli(['status', '--session', 'h1', ...store, '--json']);
    assert.deepEqual(status.json.completed_actions, [evil]);
    const again = cli(['iterate', '--session', 'h1', '--outcome', 'continue', '--action', evil, ...store]);
    assert.equal(again.code, 5, 'the same action id is refused as already complete');
    const exported = cli([
      'store',
      'export',
      '--project',
      'hostile',
      '--root',
      tempRoot('hostile-out'),
      '--store',
      url,
      '--json',
    ]);
    assert.equal(exported.code, 0);
    for (const id of [`x'); DROP TABLE loop_ledger_sessions; --`, 'a"b', 'a\\b', '../etc', '']) {
      const bad = cli(['open', '--session', id, '--contract', CONTRACT, ...store]);
      assert.equal(bad.code, 2, `session id ${JSON.stringify(id)}: ${bad.stderr}`);
    }
    const tables = await sql(`SELECT count(*)::int AS c FROM pg_tables WHERE tablename LIKE 'loop_ledger_%'`);
    assert.equal(tables.rows[0].c, 7); // the six tables and the briefs
  });

  it('a session id differing only in case from an existing one: the same refusal on both stores', () => {
    const fileRoot = tempRoot('twins');
    const pgRoot = tempRoot('twins');
    const elsewhere = tempRoot('twins'); // another machine, same project
    for (const [args, root] of [
      [['open', '--session', 'Fix-1', '--contract', CONTRACT], null],
      [['open', '--session', 'fix-1', '--contract', CONTRACT], null],
      [['open', '--session', 'FIX-1', '--contract', CONTRACT, '--force'], null],
      [['open', '--session', 'Fix-1', '--contract', CONTRACT, '--force'], null],
      [['open', '--session', 'fix-2', '--contract', CONTRACT], elsewhere],
    ] as [string[], string | null][]) {
      const onFiles = cli([...args, '--root', fileRoot]);
      const onPg = cli([...args, '--root', root ?? pgRoot, '--project', 'twins', '--store', url]);
      assert.equal(onPg.code, onFiles.code, `${args.join(' ')}: ${onPg.stderr}`);
      assert.equal(onPg.stderr, onFiles.stderr, args.join(' '));
      assert.equal(withoutClock(onPg.stdout), withoutClock(onFiles.stdout), args.join(' '));
    }
    const refused = cli([
      'open',
      '--session',
      'fix-1',
      '--contract',
      CONTRACT,
      '--root',
      elsewhere,
      '--store',
      url,
    ]);
    assert.equal(refused.code, 2);
    assert.match(
      refused.stderr,
      /session id "fix-1": a ledger for "Fix-1" exists, and ids that differ only in case/,
    );
    const listed = cli(['list', '--root', pgRoot, '--project', 'twins', '--store', url, '--json']);
    assert.deepEqual(
      listed.json.sessions.map((s: { session: string }) => s.session),
      ['Fix-1', 'fix-2'],
    );
  });

  it('status reads the records’ stored fold, never the records; without a fold it reads them and the next write stores one', async () => {
    const root = tempRoot('fold');
    const on = ['--root', root, '--store', url];
    assert.equal(cli(['open', '--session', 'f1', '--contract', CONTRACT, ...on]).code, 0);
    for (const [i, extra] of [
      [0, ['--error', 'E1 boom']],
      [1, ['--measure', 'todo-count=2', '--measure', 'module-lines=40']],
      [2, ['--state', 's-x']],
    ] as [number, string[]][])
      assert.equal(
        cli(['iterate', '--session', 'f1', '--outcome', 'continue', '--action', `a${i}`, ...extra, ...on])
          .code,
        0,
      );
    const before = cli(['status', '--session', 'f1', ...on, '--json']);
    assert.equal(before.code, 0, before.stderr);
    assert.equal(before.json.iterations, 3);
    // Every record row made unreadable: status answers the same, so it read none of them; score,
    // which does read them, fails.
    const where = `project = 'fold' AND session = 'f1'`;
    const records = await sql(`SELECT n, record FROM loop_ledger_iterations WHERE ${where}`);
    await sql(`UPDATE loop_ledger_iterations SET record = 'not json' WHERE ${where}`);
    const blind = cli(['status', '--session', 'f1', ...on, '--json']);
    assert.equal(blind.code, 0, blind.stderr);
    assert.equal(blind.stdout, before.stdout);
    const score = cli([
      'score',
      '--session',
      'f1',
      '--measure',
      'todo-count=1',
      '--measure',
      'module-lines=1',
      ...on,
    ]);
    assert.notEqual(score.code, 0);
    for (const row of records.rows)
      await sql(`UPDATE loop_ledger_iterations SET record = $1 WHERE ${where} AND n = $2`, [
        row.record,
        row.n,
      ]);
    // No fold (a session written before it existed): status reads the records, and says the same.
    const noFold = `UPDATE loop_ledger_sessions SET records_summary = NULL WHERE ${where}`;
    await sql(noFold);
    assert.equal(cli(['status', '--session', 'f1', ...on, '--json']).stdout, before.stdout);
    // The next write stores the fold again, folded from the records; status from it and from the
    // records agree.
    const next = [
      'iterate',
      '--session',
      'f1',
      '--outcome',
      'continue',
      '--action',
      'b1',
      '--error',
      'E1 boom',
    ];
    assert.equal(cli([...next, ...on]).code, 0);
    const fold = await sql(`SELECT records_summary FROM loop_ledger_sessions WHERE ${where}`);
    assert.equal(JSON.parse(fold.rows[0].records_summary).count, 4);
    const fromFold = cli(['status', '--session', 'f1', ...on, '--json']);
    await sql(noFold);
    const fromRecords = cli(['status', '--session', 'f1', ...on, '--json']);
    assert.equal(fromFold.code, 0, fromFold.stderr);
    assert.equal(fromFold.json.iterations, 4);
    assert.equal(fromFold.stdout, fromRecords.stdout);
  });

  it('remembered request ids are pruned when old and not among the newest, and a kept one still answers a retry', async () => {
    const root = tempRoot('prune');
    const on = ['--root', root, '--store', url];
    assert.equal(cli(['open', '--session', 'p1', '--contract', CONTRACT, ...on]).code, 0);
    const first = cli([
      'iterate',
      '--session',
      'p1',
      '--outcome',
      'continue',
      '--action',
      'kept',
      '--request-id',
      'req-kept',
      ...on,
      '--json',
    ]);
    assert.equal(first.code, 0, first.stderr);
    const where = `project = 'prune' AND session = 'p1'`;
    // Pretend the session has had 2047 writes, with requests of every kind of age.
    await sql(`UPDATE loop_ledger_sessions SET seq = 2047 WHERE ${where}`);
    const add = (id: string, seq: number | null, daysAgo: number) =>
      sql(
        `INSERT INTO loop_ledger_requests (project, session, request_id, outcome, seq, created_at)
         VALUES ('prune', 'p1', $1, '{}', $2, now() - make_interval(days => $3))`,
        [id, seq, daysAgo],
      );
    await add('old-far', 10, 8); // old, and 2000+ writes ago: pruned
    await add('old-unnumbered', null, 8); // old, written before requests were numbered: pruned
    await add('young-far', 20, 1); // a day old: kept, however many writes ago
    await add('old-near', 1500, 30); // among the newest 1000 writes: kept, however old
    const ids = async () =>
      (await sql(`SELECT request_id FROM loop_ledger_requests WHERE ${where} ORDER BY request_id`)).rows.map(
        (r) => r.request_id as string,
      );
    const iterate = (action: string) =>
      cli(['iterate', '--session', 'p1', '--outcome', 'continue', '--action', action, ...on]);
    // Write 2048 (a multiple of 64) prunes.
    assert.equal(iterate('x1').code, 0);
    const left = await ids();
    assert.ok(!left.includes('old-far') && !left.includes('old-unnumbered'), left.join(' '));
    for (const id of ['young-far', 'old-near', 'req-kept']) assert.ok(left.includes(id), id);
    // Kept besides: the open's request and the new write's.
    assert.equal(left.length, 5, left.join(' '));
    // Write 2049 does not prune (the cost is spread over 64 writes).
    await add('old-far-2', 11, 8);
    assert.equal(iterate('x2').code, 0);
    assert.ok((await ids()).includes('old-far-2'));
    // A kept request still answers its retry with the first outcome, written once.
    const retry = cli([
      'iterate',
      '--session',
      'p1',
      '--outcome',
      'continue',
      '--action',
      'kept',
      '--request-id',
      'req-kept',
      ...on,
      '--json',
    ]);
    assert.equal(retry.code, 0, retry.stderr);
    assert.deepEqual(retry.json, first.json);
    const kept = await sql(`SELECT count(*)::int AS c FROM loop_ledger_iterations WHERE ${where}`);
    assert.equal(kept.rows[0].c, 3);
  });
});
