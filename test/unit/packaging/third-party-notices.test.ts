// dist/ThirdPartyNotices.txt against what the shipped bundles really contain (the esbuild
// metafiles the build kept), and the .vsix file list from vsce itself.
import * as assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { childEnv } from '../helpers/cli';

const repo = resolve(__dirname, '../../../..');

interface Shipped {
  name: string;
  metafile: { inputs: Record<string, unknown> };
}

/** Package folders named by bundle inputs, found here by splitting on every node_modules segment. */
function packageDirsOf(shipped: Shipped[]): Set<string> {
  const dirs = new Set<string>();
  for (const bundle of shipped) {
    for (const input of Object.keys(bundle.metafile.inputs)) {
      const parts = input.split('/');
      const last = parts.lastIndexOf('node_modules');
      if (last < 0) continue;
      const width = parts[last + 1]!.startsWith('@') ? 2 : 1;
      dirs.add(parts.slice(0, last + 1 + width).join('/'));
    }
  }
  return dirs;
}

describe('third-party notices', () => {
  const notices = readFileSync(join(repo, 'dist', 'ThirdPartyNotices.txt'), 'utf8');
  const shipped: Shipped[] = JSON.parse(readFileSync(join(repo, 'out', 'bundle-metafiles.json'), 'utf8'));

  it('were generated from every shipped bundle', () => {
    assert.deepEqual(shipped.map((b) => b.name).sort(), [
      // One bundle per everyday command (src/cli/command-table.ts), which the launcher prefers.
      ...[
        'brief',
        'checkpoint',
        'close',
        'iterate',
        'list',
        'open',
        'resume',
        'score',
        'status',
        'store',
        'validate',
      ].map((name) => `dist/cli-cmd/${name}.js`),
      'dist/cli-main.js',
      'dist/cli-repeat.js',
      'dist/cli-run.js',
      'dist/cli.js',
      // The contract editor's worker thread bundles jsonc-parser and the engine too.
      'dist/contractCheckWorker.js',
      'dist/extension.js',
      // `loop-ledger mcp`: the MCP server and its SDK, required only by that command.
      'dist/mcp.js',
      // The ledger worker thread: the Sessions tree's reads and large ledgers' overviews, off the host.
      'dist/overviewWorker.js',
      // A PostgreSQL store's operations and the `pg` driver, required only when one is selected.
      'dist/pg.js',
      'dist/webview/brief.js',
      // The session overview and dashboard: hand-written, but checked like every shipped bundle.
      'dist/webview/overview.js',
    ]);
  });

  const README_LICENSED = new Set(['pg-types', 'pgpass']);

  it('list every bundled package with its version and its full license text', () => {
    const dirs = packageDirsOf(shipped);
    // The packages the issue names, so an empty metafile cannot pass this test.
    for (const expected of ['zod', 'jsonc-parser', 'shlex', 'diff2html', 'lit', '@profoundlogic/hogan'])
      assert.ok(
        [...dirs].some((d) => d.endsWith(`node_modules/${expected}`)),
        `${expected} is bundled`,
      );
    for (const dir of dirs) {
      const manifest = JSON.parse(readFileSync(join(repo, dir, 'package.json'), 'utf8'));
      const heading = `${manifest.name} ${manifest.version} (${manifest.license})`;
      assert.ok(notices.includes(`\n${heading}\n`), `${dir}: no section "${heading}"`);
      const legal = readdirSync(join(repo, dir)).filter((f) => /^(licen[cs]e|notice|copying)/i.test(f));
      // pg-types and pgpass carry their license only as a README section: that section ships.
      if (legal.length === 0 && README_LICENSED.has(manifest.name)) {
        const section = notices.slice(notices.indexOf(`\n${heading}\n`)).split(/\n={72}\n/)[0] as string;
        assert.match(section, /Permission is hereby granted/, `${dir}: its README's license text`);
        continue;
      }
      assert.ok(legal.length > 0, `${dir} has a license file`);
      for (const file of legal) {
        const text = readFileSync(join(repo, dir, file), 'utf8').trimEnd();
        assert.ok(notices.includes(text), `${dir}/${file} is not in the notices`);
      }
    }
  });

  it('list nothing that is not bundled', () => {
    const names = [...notices.matchAll(/^=+\n(\S+) \S+ \(/gm)].map((m) => m[1]);
    const bundled = [...packageDirsOf(shipped)].map(
      (d) => JSON.parse(readFileSync(join(repo, d, 'package.json'), 'utf8')).name,
    );
    assert.deepEqual([...names].sort(), [...bundled].sort());
  });

  it('ship in the .vsix (vsce ls)', function () {
    this.timeout(60_000);
    const vsce = join(repo, 'node_modules', '@vscode', 'vsce', 'vsce');
    assert.ok(existsSync(vsce));
    const r = spawnSync(process.execPath, [vsce, 'ls', '--no-dependencies'], {
      cwd: repo,
      env: childEnv(),
      encoding: 'utf8',
    });
    assert.equal(r.status, 0, r.stderr);
    const files = r.stdout.split('\n').map((l) => l.trim());
    assert.ok(files.includes('dist/ThirdPartyNotices.txt'), r.stdout);
    assert.ok(!files.some((f) => f.endsWith('.map')), 'no source maps ship');
  });
});
