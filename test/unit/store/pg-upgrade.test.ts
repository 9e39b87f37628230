// A populated database written by the loop-ledger that shipped schema version 1 (the fixture in
// test/fixtures/pg-v1, made by its make.sh with that commit's CLI), upgraded by today's
// `store migrate`: before it, every command refuses and writes nothing; after it, status, list
// and writes answer as on the same ledgers imported fresh, and as on the files.
import { strict as assert } from 'node:assert';
import { cpSync, readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { Client } from 'pg';
import { createStoreDatabase } from '../helpers/pg-cluster';
import { cli, CONTRACT, tempRoot, withoutClock } from '../helpers/pg-cli';

const FIXTURE = resolve(__dirname, '../../../../test/fixtures/pg-v1');
const PROJECT = 'v1proj';
const TABLES = ['loop_ledger_schema', 'sessions', 'epochs', 'iterations', 'actions', 'requests'].map((t) =>
  t.startsWith('loop_') ? t : `loop_ledger_${t}`,
);

describe('PostgreSQL store: upgrading a populated schema-1 database', function () {
  this.timeout(300_000);
  let upgraded: string;
  let upgradedName: string;
  let fresh: string;

  const query = async (url: string, text: string) => {
    const client = new Client(url);
    await client.connect();
    try {
      return await client.query(text);
    } finally {
      await client.end();
    }
  };

  /** Every row of every table, in a stable order: what "nothing written" compares. */
  const everything = async (url: string): Promise<string> => {
    const out: Record<string, unknown> = {};
    for (const table of TABLES)
      out[table] = (await query(url, `SELECT to_jsonb(t)::text AS row FROM ${table} t ORDER BY 1`)).rows;
    return JSON.stringify(out);
  };

  before(async () => {
    ({ url: upgraded, name: upgradedName } = await createStoreDatabase('upgraded'));
    fresh = (await createStoreDatabase('fresh')).url;
    await query(upgraded, readFileSync(join(FIXTURE, 'v1.sql'), 'utf8'));
  });

  /** A root holding the fixture's ledgers as files (the same history the v1 rows hold). */
  const filesRoot = (): string => {
    const root = tempRoot(PROJECT);
    cpSync(join(FIXTURE, 'ledgers'), join(root, '.loop', 'ledgers'), { recursive: true });
    return root;
  };

  it('the fixture is a version-1 database with rows in every table', async () => {
    assert.equal((await query(upgraded, 'SELECT version FROM loop_ledger_schema')).rows[0].version, 1);
    for (const table of TABLES.slice(1)) {
      const n = (await query(upgraded, `SELECT count(*)::int AS c FROM ${table}`)).rows[0].c;
      assert.ok(n > 0, `${table} has rows`);
    }
  });

  it('before `store migrate`, every command refuses (exit 2, one line saying to migrate) and writes nothing', async () => {
    const before = await everything(upgraded);
    const root = tempRoot(PROJECT);
    for (const args of [
      ['status', '--session', 'alpha'],
      ['list'],
      ['iterate', '--session', 'beta', '--outcome', 'continue', '--action', 'b9'],
      ['open', '--session', 'delta', '--contract', CONTRACT],
      ['close', '--session', 'beta', '--outcome', 'complete'],
      ['resume', '--session', 'gamma'],
      ['store', 'export'],
    ]) {
      const r = cli([...args, '--root', root, '--store', upgraded]);
      assert.equal(r.code, 2, `${args.join(' ')}: ${r.stderr}`);
      assert.equal(r.stdout, '', args.join(' '));
      assert.match(
        r.stderr,
        new RegExp(
          `^\\S+/${upgradedName}: the Loop Ledger schema is at version 1, this loop-ledger needs \\d+; run \`loop-ledger store migrate\`\n$`,
        ),
        args.join(' '),
      );
    }
    assert.equal(await everything(upgraded), before, 'nothing written');
  });

  it('after `store migrate`, status, list and writes answer as on a fresh import and on the files', async () => {
    const migrated = cli(['store', 'migrate', '--root', tempRoot(PROJECT), '--store', upgraded, '--json']);
    assert.equal(migrated.code, 0, migrated.stderr);
    assert.equal(migrated.json.from_version, 1);
    assert.ok(migrated.json.to_version >= 2);
    // The rows written by version 1 are kept as they were; the new columns start empty.
    const summaries = await query(
      upgraded,
      'SELECT count(records_summary)::int AS c FROM loop_ledger_sessions',
    );
    assert.equal(summaries.rows[0].c, 0);

    assert.equal(cli(['store', 'migrate', '--root', tempRoot(PROJECT), '--store', fresh]).code, 0);
    const imported = cli(['store', 'import', '--root', filesRoot(), '--store', fresh, '--json']);
    assert.equal(imported.code, 0, imported.stderr);

    // Every root is a folder named after the fixture's project, which the store takes as --project.
    const onFiles = filesRoot();
    const roots: [string, string[]][] = [
      ['files', ['--root', onFiles]],
      ['upgraded', ['--root', tempRoot(PROJECT), '--store', upgraded]],
      ['fresh import', ['--root', tempRoot(PROJECT), '--store', fresh]],
    ];
    const steps: string[][] = [
      ['status', '--session', 'alpha'],
      ['status', '--session', 'beta'],
      ['status', '--session', 'gamma'],
      ['list'],
      ['score', '--session', 'beta', '--measure', 'todo-count=1', '--measure', 'module-lines=30'],
      // Writes: the first on each session after the upgrade reads its records in full.
      ['iterate', '--session', 'beta', '--outcome', 'continue', '--action', 'b3', '--cost', '0.5'],
      ['iterate', '--session', 'beta', '--outcome', 'continue', '--action', 'b1'],
      ['iterate', '--session', 'alpha', '--outcome', 'continue'],
      ['open', '--session', 'alpha', '--contract', CONTRACT],
      ['iterate', '--session', 'alpha', '--outcome', 'continue', '--error', 'E1 boom', '--tokens-out', '5'],
      ['iterate', '--session', 'alpha', '--outcome', 'continue', '--error', 'E1 boom'],
      ['resume', '--session', 'gamma'],
      ['iterate', '--session', 'gamma', '--outcome', 'complete'],
      ['status', '--session', 'alpha'],
      ['status', '--session', 'beta'],
      ['status', '--session', 'gamma'],
      ['list'],
    ];
    for (const step of steps) {
      const results = roots.map(([, on]) => cli([...step, ...on, '--json']));
      const [files] = results;
      for (const [i, r] of results.entries()) {
        const what = `${roots[i]?.[0]}: ${step.join(' ')}`;
        assert.equal(r.code, files?.code, `${what}: ${r.stderr}`);
        assert.equal(r.stderr, files?.stderr, what);
        const shown = (x: typeof r) =>
          withoutClock(step[0] === 'list' ? JSON.stringify(listed(x.json)) : x.stdout);
        assert.equal(shown(r), shown(files!), what);
      }
    }
    // Not only the same answer everywhere: the right one (alpha's spend from its v1 records).
    const alpha = cli([
      'status',
      '--session',
      'alpha',
      ...(roots[1]?.[1] ?? []),
      '--project',
      PROJECT,
      '--json',
    ]);
    assert.deepEqual(alpha.json.spend, { cost_usd: 0.25, tokens_in: 100, tokens_out: 15 });
    assert.equal(alpha.json.epoch, 2);
    // Each session written since the upgrade now keeps its records' fold.
    const kept = await query(
      upgraded,
      `SELECT session FROM loop_ledger_sessions WHERE records_summary IS NOT NULL ORDER BY session`,
    );
    assert.deepEqual(
      kept.rows.map((r) => r.session),
      ['alpha', 'beta', 'gamma'],
    );
    // And the upgraded database exports the ledgers the files hold.
    const out = tempRoot(PROJECT);
    const exported = cli(['store', 'export', '--root', out, '--store', upgraded, '--json']);
    assert.equal(exported.code, 0, exported.stderr);
    const ledgers = join(onFiles, '.loop', 'ledgers');
    for (const name of readdirSync(ledgers).filter((n) => n.endsWith('.json')))
      assert.equal(
        withoutClock(readFileSync(join(out, '.loop', 'ledgers', name), 'utf8')),
        withoutClock(readFileSync(join(ledgers, name), 'utf8')),
        name,
      );
  });
});

/** A listing without what names the store (each session's path, the root). */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
function listed(json: any): unknown {
  return {
    ...json,
    root: '',
    sessions: json.sessions.map((s: Record<string, unknown>) => ({ ...s, path: '' })),
  };
}
