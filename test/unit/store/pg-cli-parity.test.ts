// The shared CLI cases (test/unit/cli/store-cases.ts: spend flags, cost/token/time caps, hostile
// notes and ids) run once on the ledger files and once on a real PostgreSQL store: every step's
// exit code, stdout and stderr must be the same, and right by the case's own checks.
import { strict as assert } from 'node:assert';
import { basename } from 'node:path';
import { Client } from 'pg';
import { withStoreDatabase } from '../helpers/pg-cluster';
import { withoutClock } from '../helpers/pg-cli';
import { agedOpening, FILES, runCase, STORE_CASES, type CaseRun, type CliTarget } from '../cli/store-cases';

describe('CLI cases on both stores: the same answers on files and PostgreSQL', function () {
  this.timeout(600_000);
  const db = withStoreDatabase('pg_cli_parity');
  let store: CliTarget;

  before(async () => {
    store = {
      name: 'postgres',
      args: () => ['--store', db.url],
      // The project is the root folder's name (each case's root is a fresh folder).
      ageEpoch: async (root, session, hours) => {
        const client = new Client(db.url);
        await client.connect();
        try {
          const key = [basename(root), session];
          const row = await client.query<{ head: string }>(
            'SELECT head FROM loop_ledger_sessions WHERE project = $1 AND session = $2',
            key,
          );
          const head = row.rows[0]?.head ?? '';
          const aged = head.replace(/("opened_at":\s*)"[^"]*"/, `$1"${agedOpening(hours)}"`);
          assert.notEqual(aged, head, 'the head holds opened_at');
          await client.query(
            'UPDATE loop_ledger_sessions SET head = $3 WHERE project = $1 AND session = $2',
            [...key, aged],
          );
        } finally {
          await client.end();
        }
      },
    };
    const { runCli } = await import('../helpers/cli');
    const migrated = runCli(['store', 'migrate', '--store', db.url]);
    assert.equal(migrated.code, 0, migrated.stderr);
  });

  /** What a step shows, without what names its store (a listing's paths and root) or the clock. */
  const shown = (run: CaseRun, i: number): string => {
    const r = run.results[i];
    if (r?.json?.sessions !== undefined && r.json.root !== undefined)
      return withoutClock(
        JSON.stringify({
          ...r.json,
          root: '',
          sessions: r.json.sessions.map((s: object) => ({ ...s, path: '' })),
        }),
      );
    return withoutClock(r?.stdout ?? '')
      .split(run.root)
      .join('<root>');
  };

  for (const c of STORE_CASES) {
    it(c.name, async () => {
      const onFiles = await runCase(c, FILES);
      const onStore = await runCase(c, store);
      c.check(onFiles.results);
      c.check(onStore.results);
      assert.equal(onStore.results.length, onFiles.results.length);
      for (const [i, r] of onStore.results.entries()) {
        const f = onFiles.results[i];
        assert.equal(r.code, f?.code, `step ${i}: exit code (${r.stderr})`);
        assert.equal(shown(onStore, i), shown(onFiles, i), `step ${i}: stdout`);
        assert.equal(
          r.stderr.split(onStore.root).join('<root>'),
          f?.stderr.split(onFiles.root).join('<root>'),
          `step ${i}: stderr`,
        );
      }
    });
  }
});
