// package.json's contributions are translatable: every title, name and description a person
// reads is a %key% that package.nls.json defines, and package.nls.json holds no key nobody uses.
import * as assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { childEnv } from '../helpers/cli';

const repo = resolve(__dirname, '../../../..');
const readJson = (name: string): Record<string, unknown> =>
  JSON.parse(readFileSync(join(repo, name), 'utf8')) as Record<string, unknown>;

/** Every string value in `value`, with the JSON path that leads to it. */
function stringsIn(value: unknown, path = '$'): { path: string; text: string }[] {
  if (typeof value === 'string') return [{ path, text: value }];
  if (Array.isArray(value)) return value.flatMap((item, index) => stringsIn(item, `${path}[${index}]`));
  if (value && typeof value === 'object')
    return Object.entries(value).flatMap(([key, item]) => stringsIn(item, `${path}.${key}`));
  return [];
}

/** Fields of the manifest VS Code shows to a person (the rest are ids, paths, when-clauses, icons). */
const SHOWN = [
  /^\$\.(displayName|description)$/,
  /^\$\.contributes\.viewsContainers\.\w+\[\d+\]\.title$/,
  /^\$\.contributes\.views\.\w+\[\d+\]\.(name|contextualTitle)$/,
  /^\$\.contributes\.viewsWelcome\[\d+\]\.contents$/,
  /^\$\.contributes\.commands\[\d+\]\.(title|category|shortTitle)$/,
  /^\$\.contributes\.configuration\.title$/,
  /^\$\.contributes\.configuration\.properties\.[\w.]+\.(description|markdownDescription|enumDescriptions\[\d+\])$/,
  /^\$\.capabilities\.untrustedWorkspaces\.description$/,
];

describe('package.nls.json', () => {
  const manifest = readJson('package.json');
  const nls = readJson('package.nls.json');
  const strings = stringsIn(manifest);
  const used = new Set(strings.flatMap(({ text }) => [...text.matchAll(/^%([^%\s]+)%$/g)].map((m) => m[1]!)));

  it('defines every %key% package.json uses', () => {
    assert.ok(used.size > 30, `only ${used.size} keys used`);
    const missing = [...used].filter((key) => typeof nls[key] !== 'string' || nls[key] === '');
    assert.deepEqual(missing, []);
  });

  it('holds no key package.json does not use', () => {
    assert.deepEqual(
      Object.keys(nls).filter((key) => !used.has(key)),
      [],
    );
  });

  it('leaves no title, name or description in package.json as plain English', () => {
    const shown = strings.filter(({ path }) => SHOWN.some((pattern) => pattern.test(path)));
    assert.ok(shown.length > 30, `only ${shown.length} shown strings found`);
    assert.deepEqual(
      shown.filter(({ text }) => !/^%[^%\s]+%$/.test(text)).map(({ path }) => path),
      [],
    );
  });

  it('names the string bundle folder, which the .vsix ships with package.nls.json', () => {
    assert.equal(manifest.l10n, './l10n');
    const ignore = readFileSync(join(repo, '.vscodeignore'), 'utf8').split('\n');
    assert.ok(ignore.includes('!package.nls.json'), '.vscodeignore keeps package.nls.json');
    assert.ok(ignore.includes('!l10n/**'), '.vscodeignore keeps l10n/');
  });

  it('ships package.nls.json and the string bundle in the .vsix (vsce ls)', function () {
    this.timeout(60_000);
    const vsce = join(repo, 'node_modules', '@vscode', 'vsce', 'vsce');
    const r = spawnSync(process.execPath, [vsce, 'ls', '--no-dependencies'], {
      cwd: repo,
      env: childEnv(),
      encoding: 'utf8',
    });
    assert.equal(r.status, 0, r.stderr);
    const files = r.stdout.split('\n').map((line) => line.trim());
    assert.ok(files.includes('package.nls.json'), r.stdout);
    assert.ok(files.includes('l10n/bundle.l10n.json'), r.stdout);
  });
});
