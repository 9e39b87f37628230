// l10n/bundle.l10n.json is what `npm run l10n:export` makes of the sources now: a string added
// with l10n.t but not exported (or one left behind after its call was removed) fails here.
import * as assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

const repo = resolve(__dirname, '../../../..');

describe('l10n/bundle.l10n.json', () => {
  // The git driver's change labels and range hint are shown in the brief panel, so they are
  // translated with the extension's words.
  it('equals a fresh export of every l10n.t string in src/extension and src/drivers/git', function () {
    this.timeout(120_000);
    const out = mkdtempSync(join(tmpdir(), 'l10n-export-'));
    try {
      const cli = join(repo, 'node_modules', '@vscode', 'l10n-dev', 'dist', 'cli.js');
      const r = spawnSync(
        process.execPath,
        [cli, 'export', '--outDir', out, './src/extension', './src/drivers/git'],
        {
          cwd: repo,
          encoding: 'utf8',
        },
      );
      assert.equal(r.status, 0, r.stderr);
      const fresh = JSON.parse(readFileSync(join(out, 'bundle.l10n.json'), 'utf8')) as Record<
        string,
        unknown
      >;
      const committed = JSON.parse(readFileSync(join(repo, 'l10n', 'bundle.l10n.json'), 'utf8')) as Record<
        string,
        unknown
      >;
      assert.ok(Object.keys(fresh).length > 300, `only ${Object.keys(fresh).length} strings exported`);
      const missing = Object.keys(fresh).filter((key) => !Object.hasOwn(committed, key));
      const stale = Object.keys(committed).filter((key) => !Object.hasOwn(fresh, key));
      assert.deepEqual({ missing, stale }, { missing: [], stale: [] }, 'run `npm run l10n:export`');
      assert.deepEqual(committed, fresh);
    } finally {
      rmSync(out, { recursive: true, force: true });
    }
  });

  it('holds the words people read, with placeholders rather than pasted-in values', () => {
    const bundle = JSON.parse(readFileSync(join(repo, 'l10n', 'bundle.l10n.json'), 'utf8')) as Record<
      string,
      string
    >;
    for (const key of [
      'Loop Ledger: {0} refused (exit {1}: {2}). {3} Nothing was written.',
      'Loop Ledger — {0} is open: {1} iterations this epoch, last outcome {2}, rubric {3}{4}. Click for its status.',
      'Which session?',
      'Critic next',
    ])
      assert.equal(bundle[key], key);
    assert.deepEqual(
      Object.keys(bundle).filter((key) => key.includes('${')),
      [],
      'a template literal reached the bundle',
    );
  });
});
