// `wo compile coverage-slice | drift-guard | lockfile-sha`, through the CLI as a child process:
// the cases of the original's wo-compile spec for these three sub-commands, ported.
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { spawnSync } from 'node:child_process';
import { mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { CLI, childEnv, cliResultOf, tempRoot } from '../helpers/cli';

// eslint-disable-next-line @typescript-eslint/no-explicit-any
function compile(sub: string, input: unknown): { code: number | null; json: any; stderr: string } {
  const stdin = typeof input === 'string' ? input : JSON.stringify(input);
  const r = spawnSync(process.execPath, [CLI, 'wo', 'compile', sub], {
    input: stdin,
    env: childEnv(),
    encoding: 'utf8',
    maxBuffer: 64 * 1024 * 1024,
  });
  assert.equal(r.stdout.trim().split('\n').length, 1, `one JSON line on stdout: ${r.stdout}`);
  const { code, json, stderr } = cliResultOf(r);
  return { code, json, stderr };
}

const entry = (aspect: unknown, verified: boolean, ref = 'g') => ({ aspect, kind: 'guide', ref, verified });
const map = (entries: unknown[], warnings: unknown[] = []) => ({ coverage_map: { entries, warnings } });

describe('wo compile coverage-slice (the original spec, ported)', () => {
  it('T1: an empty covered slice is never verified (AND over nothing fails closed)', () => {
    const r = compile('coverage-slice', { ...map([entry('a', true)]), aspects: ['z'] });
    assert.equal(r.code, 0);
    assert.equal(r.json.verified, false);
    assert.equal(r.json.coverage_status, 'uncovered');
    assert.equal(r.json.covered_count, 0);
    assert.equal(r.stderr, '', 'no status line, as the original');
  });

  it('T2: a slug_not_in_catalog or recipe_body_unverified warning poisons every work order', () => {
    for (const warning of ['slug_not_in_catalog:ghost', 'recipe_body_unverified:r']) {
      const r = compile('coverage-slice', { ...map([entry('a', true)], [warning]), aspects: ['a'] });
      assert.equal(r.json.verified, false, warning);
      assert.equal(r.json.coverage_status, 'poisoned', warning);
      assert.deepEqual(r.json.poison_warnings, [warning]);
    }
  });

  it('T3: all covered entries verified and only harmless warnings ⇒ verified, the slice holds exactly them', () => {
    const r = compile('coverage-slice', {
      ...map(
        [entry('a', true, 'g1'), entry('b', true, 'cap'), entry('c', false, 'other')],
        ['navigator_unavailable'],
      ),
      aspects: ['a', 'b'],
    });
    assert.equal(r.json.ok, true);
    assert.equal(r.json.verified, true);
    assert.equal(r.json.coverage_status, 'covered');
    assert.deepEqual(r.json.poison_warnings, []);
    assert.equal(r.json.covered_count, 2);
    assert.deepEqual(r.json.covered_entries.map((e: { ref: string }) => e.ref).sort(), ['cap', 'g1']);
    assert.deepEqual(r.json.aspects, ['a', 'b']);
    assert.deepEqual(r.json.warnings, []);
  });

  it('T4: one covered entry unverified ⇒ not verified (AND), still covered', () => {
    const r = compile('coverage-slice', {
      ...map([entry('a', true), entry('b', false)]),
      aspects: ['a', 'b'],
    });
    assert.equal(r.json.verified, false);
    assert.equal(r.json.coverage_status, 'covered');
  });

  it('T5: precedence poisoned > uncovered > covered', () => {
    const pc = compile('coverage-slice', {
      ...map([entry('a', true)], ['slug_not_in_catalog:x']),
      aspects: ['a'],
    });
    assert.equal(pc.json.coverage_status, 'poisoned');
    const pu = compile('coverage-slice', {
      ...map([entry('a', true)], ['recipe_body_unverified:x']),
      aspects: ['z'],
    });
    assert.equal(pu.json.coverage_status, 'poisoned');
    const u = compile('coverage-slice', { ...map([entry('a', true)]), aspects: ['z'] });
    assert.equal(u.json.coverage_status, 'uncovered');
  });

  it('T6: a missing coverage map fails closed with coverage_map_missing, exit 0', () => {
    const r = compile('coverage-slice', { aspects: ['a'] });
    assert.equal(r.code, 0);
    assert.equal(r.json.verified, false);
    assert.ok(r.json.warnings.includes('coverage_map_missing'));
  });

  it('CRITICAL-1: aspects that are not an array fail closed (no substring match)', () => {
    for (const aspects of ['auth_login', 7, { a: 1 }]) {
      const r = compile('coverage-slice', { ...map([entry('auth', true)]), aspects });
      assert.equal(r.code, 0);
      assert.equal(r.json.verified, false, JSON.stringify(aspects));
      assert.equal(r.json.coverage_status, 'uncovered');
      assert.ok(r.json.warnings.includes('aspects_not_array'));
    }
    const membership = compile('coverage-slice', { ...map([entry('auth', true)]), aspects: ['auth_login'] });
    assert.equal(membership.json.coverage_status, 'uncovered', 'membership, not substring');
    assert.equal(membership.json.verified, false);
    const mixed = compile('coverage-slice', { ...map([entry('auth', true)]), aspects: ['auth', 123] });
    assert.equal(mixed.json.coverage_status, 'covered', 'a non-string aspect is ignored');
    assert.deepEqual(mixed.json.aspects, ['auth']);
  });

  it('L-1 / R2-HIGH: poison is found case-insensitively, padded, or wrapped in an object; harmless warnings are not poison', () => {
    const mixed = compile('coverage-slice', {
      ...map([entry('a', true)], ['Slug_Not_In_Catalog:x', 42]),
      aspects: ['a'],
    });
    assert.equal(mixed.json.coverage_status, 'poisoned');
    assert.equal(mixed.json.poison_warnings.length, 1, 'a non-string warning is tolerated');
    for (const warning of [
      '   slug_not_in_catalog:x',
      { x: 'slug_not_in_catalog:y' },
      { k: 'RECIPE_BODY_UNVERIFIED:z' },
    ]) {
      const r = compile('coverage-slice', { ...map([entry('a', true)], [warning]), aspects: ['a'] });
      assert.equal(r.json.verified, false, JSON.stringify(warning));
      assert.equal(r.json.coverage_status, 'poisoned', JSON.stringify(warning));
    }
    const clean = compile('coverage-slice', {
      ...map([entry('a', true)], ['navigator_unavailable', 'recipe_cache_missing']),
      aspects: ['a'],
    });
    assert.equal(clean.json.verified, true);
  });

  it('R2-CRITICAL: an entry whose aspect is not a string is never sliced in', () => {
    for (const [aspect, aspects] of [
      [['x'], ['x']],
      [{}, ['x']],
      [5, [5]],
      [null, ['x']],
    ] as const) {
      const r = compile('coverage-slice', { ...map([entry(aspect, true)]), aspects });
      assert.equal(r.json.verified, false, JSON.stringify(aspect));
      assert.equal(r.json.covered_count, 0);
      assert.equal(r.json.coverage_status, 'uncovered');
    }
    assert.equal(
      compile('coverage-slice', { ...map([entry('x', true)]), aspects: ['x'] }).json.verified,
      true,
    );
  });

  it('input that is not JSON, or a map of the wrong shape, fails closed with input_unparseable, exit 0', () => {
    for (const input of ['not json', '', '[1,2]', JSON.stringify({ coverage_map: 'x', aspects: ['a'] })]) {
      const r = compile('coverage-slice', input);
      assert.equal(r.code, 0, input);
      assert.equal(r.json.ok, false, input);
      assert.equal(r.json.verified, false);
      assert.deepEqual(r.json.warnings, ['input_unparseable']);
    }
  });
});

describe('wo compile drift-guard (the original spec, ported)', () => {
  let code: string;
  const req = [{ id: 'R-1', runnable: true }];
  before(() => {
    const root = tempRoot('wo-drift-');
    code = join(root, 'code');
    mkdirSync(join(code, 'src', 'sub'), { recursive: true });
    writeFileSync(join(code, 'src', 'Foo.php'), 'class Foo { function bar() {} }\n');
    writeFileSync(join(code, 'src', 'keep.txt'), 'x\n');
    writeFileSync(join(root, 'outside.txt'), 'function bar\n');
    symlinkSync(join(root, 'outside.txt'), join(code, 'src', 'escape.txt'));
  });

  it('T14: a missing cited path ⇒ false, and it is listed', () => {
    const r = compile('drift-guard', {
      code_path: code,
      cited_paths: ['src/Foo.php', 'src/Gone.php'],
      requirements: req,
    });
    assert.equal(r.code, 0);
    assert.equal(r.json.drift_guard.symbols_resolved, false);
    assert.deepEqual(r.json.missing_paths, ['src/Gone.php']);
    assert.equal(r.stderr, '');
  });

  it('T15: every cited path present ⇒ true', () => {
    const r = compile('drift-guard', { code_path: code, cited_paths: ['src/Foo.php'], requirements: req });
    assert.deepEqual(r.json, {
      ok: true,
      drift_guard: { symbols_resolved: true, acceptance_runnable: true },
      missing_paths: [],
      unresolved_symbols: [],
      warnings: [],
    });
  });

  it('T16: an absent, null or missing code path ⇒ "skipped"', () => {
    const absent = compile('drift-guard', { cited_paths: ['src/Foo.php'], requirements: req });
    assert.equal(absent.json.drift_guard.symbols_resolved, 'skipped');
    assert.ok(absent.json.warnings.includes('no_code_path'));
    assert.equal(
      compile('drift-guard', { code_path: null, cited_paths: ['x'], requirements: req }).json.drift_guard
        .symbols_resolved,
      'skipped',
    );
    const gone = compile('drift-guard', {
      code_path: join(code, 'nope'),
      cited_paths: ['x'],
      requirements: req,
    });
    assert.equal(gone.json.drift_guard.symbols_resolved, 'skipped');
    assert.ok(gone.json.warnings.includes('code_path_missing'));
  });

  it('T17: acceptance_runnable — all runnable, one not, none (fails closed)', () => {
    const base = { code_path: code, cited_paths: ['src/Foo.php'] };
    assert.equal(
      compile('drift-guard', { ...base, requirements: req }).json.drift_guard.acceptance_runnable,
      true,
    );
    const oneFalse = [...req, { id: 'R-2', runnable: false }];
    assert.equal(
      compile('drift-guard', { ...base, requirements: oneFalse }).json.drift_guard.acceptance_runnable,
      false,
    );
    assert.equal(
      compile('drift-guard', { ...base, requirements: [] }).json.drift_guard.acceptance_runnable,
      false,
    );
    assert.equal(compile('drift-guard', base).json.drift_guard.acceptance_runnable, false);
    assert.equal(
      compile('drift-guard', { ...base, requirements: ['R-1'] }).json.drift_guard.acceptance_runnable,
      false,
    );
  });

  it('T18: a cited symbol found ⇒ true; not found ⇒ false and listed', () => {
    const sym = (pattern: string) => ({
      code_path: code,
      cited_paths: [],
      cited_symbols: [{ path: 'src/Foo.php', pattern }],
      requirements: req,
    });
    assert.equal(compile('drift-guard', sym('function bar')).json.drift_guard.symbols_resolved, true);
    const no = compile('drift-guard', sym('function nonexistent'));
    assert.equal(no.json.drift_guard.symbols_resolved, false);
    assert.deepEqual(no.json.unresolved_symbols, [{ path: 'src/Foo.php', pattern: 'function nonexistent' }]);
    // A fixed string, never a regular expression.
    assert.equal(compile('drift-guard', sym('function .*')).json.drift_guard.symbols_resolved, false);
  });

  it('L-3: a traversal, an absolute path or a symlink out of the checkout reads as missing; a contained `..` resolves', () => {
    for (const cited of ['../../../../etc/passwd', '/etc/passwd', 'src/escape.txt']) {
      const r = compile('drift-guard', { code_path: code, cited_paths: [cited], requirements: req });
      assert.equal(r.json.drift_guard.symbols_resolved, false, cited);
      assert.deepEqual(r.json.missing_paths, [cited]);
    }
    const escapeSym = compile('drift-guard', {
      code_path: code,
      cited_symbols: [{ path: 'src/escape.txt', pattern: 'function bar' }],
      requirements: req,
    });
    assert.equal(escapeSym.json.drift_guard.symbols_resolved, false, 'a symbol behind an escaping symlink');
    const inTree = compile('drift-guard', {
      code_path: code,
      cited_paths: ['src/sub/../keep.txt'],
      requirements: req,
    });
    assert.equal(inTree.json.drift_guard.symbols_resolved, true);
    const wholeDisk = compile('drift-guard', { code_path: '/', cited_paths: ['tmp'], requirements: req });
    assert.deepEqual(wholeDisk.json.missing_paths, ['tmp'], 'a code path of / contains nothing but itself');
  });

  it('L-2: citing nothing resolves vacuously but warns no_citations', () => {
    const r = compile('drift-guard', {
      code_path: code,
      cited_paths: [],
      cited_symbols: [],
      requirements: req,
    });
    assert.equal(r.json.drift_guard.symbols_resolved, true);
    assert.deepEqual(r.json.warnings, ['no_citations']);
  });

  it('HIGH-A: a citation field that is not an array fails closed with its own warning', () => {
    const paths = compile('drift-guard', { code_path: code, cited_paths: 'src/Gone.php', requirements: req });
    assert.equal(paths.json.drift_guard.symbols_resolved, false);
    assert.ok(paths.json.warnings.includes('cited_paths_not_array'));
    assert.equal(
      compile('drift-guard', { code_path: code, cited_paths: 5, requirements: req }).json.drift_guard
        .symbols_resolved,
      false,
    );
    const symbols = compile('drift-guard', {
      code_path: code,
      cited_paths: ['src/Foo.php'],
      cited_symbols: 'bar',
      requirements: req,
    });
    assert.equal(symbols.json.drift_guard.symbols_resolved, false);
    assert.ok(symbols.json.warnings.includes('cited_symbols_not_array'));
    const skipped = compile('drift-guard', { cited_paths: 'x', requirements: req });
    assert.equal(skipped.json.drift_guard.symbols_resolved, false, 'malformed beats "skipped"');
  });

  it('input that is not a JSON object fails closed, exit 0', () => {
    for (const input of ['nope', '', '[]']) {
      const r = compile('drift-guard', input);
      assert.equal(r.code, 0);
      assert.deepEqual(r.json.drift_guard, { symbols_resolved: false, acceptance_runnable: false });
    }
  });
});

describe('wo compile lockfile-sha (the original spec, ported)', () => {
  let root: string;
  const sha = (text: string | Buffer) => createHash('sha256').update(text).digest('hex');
  before(() => {
    root = tempRoot('wo-lock-');
    writeFileSync(
      join(root, 'cache.json'),
      JSON.stringify({
        recipes: { my_recipe: { sha: 'deadbeefsha', content: 'body' } },
        index: {
          content:
            '## Domain\n- my_recipe [my-cap] (sha:deadbeefsha): when — http://x\n- idx_only [c2] (sha:cafe1234idx): w — http://y\n',
        },
      }),
    );
    for (const name of ['architecture', 'alignment', 'research'])
      writeFileSync(join(root, `${name}.md`), `${name} body\n`);
  });

  it('reads body SHAs from the cache (structured, then the index line), hashes excerpts and design artifacts', () => {
    const excerpt = 'the inlined excerpt for recipe A';
    const r = compile('lockfile-sha', {
      cache_file: join(root, 'cache.json'),
      refs: [
        { ref: 'my_recipe@1.0', name: 'my_recipe', kind: 'recipe', excerpt },
        { ref: 'idx_only', kind: 'guide', excerpt: 'e2' },
        { ref: 'absent_one', kind: 'play', excerpt: 'e3' },
      ],
      compiled_from: {
        architecture: join(root, 'architecture.md'),
        alignment: join(root, 'alignment.md'),
        research: join(root, 'research.md'),
      },
    });
    assert.equal(r.code, 0);
    assert.equal(r.json.ok, true);
    assert.deepEqual(r.json.lockfile[0], {
      ref: 'my_recipe@1.0',
      sha: 'deadbeefsha',
      excerpt_sha: sha(excerpt),
      kind: 'recipe',
    });
    assert.equal(r.json.lockfile[1].sha, 'cafe1234idx', 'the index fallback');
    assert.equal(r.json.lockfile[2].sha, null);
    assert.deepEqual(r.json.warnings, ['sha_not_in_cache:absent_one']);
    assert.deepEqual(r.json.compiled_from.architecture, {
      file: 'architecture.md',
      sha: sha('architecture body\n'),
    });
    assert.match(r.json.compiled_from.research.sha, /^[0-9a-f]{64}$/);
  });

  it("reads the shared store's shape {hash, fetched_at, content}: the index lines with no `index` wrapper", () => {
    writeFileSync(
      join(root, 'shared-index.json'),
      JSON.stringify({
        hash: 'h1',
        fetched_at: '2026-06-01T00:00:00Z',
        content: '## Domain\n- shared_one [cap] (sha:5ha7ed): when — http://z\n',
      }),
    );
    const r = compile('lockfile-sha', {
      cache_file: join(root, 'shared-index.json'),
      refs: [
        { ref: 'shared_one@3', kind: 'recipe', excerpt: 'x' },
        { ref: 'not_there', excerpt: 'y' },
      ],
    });
    assert.equal(r.code, 0);
    assert.equal(r.json.lockfile[0].sha, '5ha7ed');
    assert.equal(r.json.lockfile[1].sha, null);
    assert.ok(r.json.warnings.includes('sha_not_in_cache:not_there'));
    assert.ok(!r.json.warnings.some((w: string) => w.startsWith('cache_unreadable')));
  });

  it('the name defaults to the ref without its @version', () => {
    const r = compile('lockfile-sha', {
      cache_file: join(root, 'cache.json'),
      refs: [{ ref: 'my_recipe@2.0', excerpt: 'x' }],
    });
    assert.equal(r.json.lockfile[0].sha, 'deadbeefsha');
  });

  it('a missing artifact reads null with compiled_from_unreadable; an absent key warns compiled_from_missing', () => {
    const r = compile('lockfile-sha', {
      cache_file: null,
      refs: [],
      compiled_from: { architecture: '/nope/architecture.md' },
    });
    assert.equal(r.json.compiled_from.architecture.sha, null);
    assert.equal(r.json.compiled_from.architecture.file, 'architecture.md');
    assert.deepEqual(r.json.warnings, [
      'no_cache_file',
      'compiled_from_unreadable:architecture',
      'compiled_from_missing:alignment',
      'compiled_from_missing:research',
    ]);
  });

  it('an unreadable cache, a ref without excerpt, and a non-object ref are warned, not fatal', () => {
    writeFileSync(join(root, 'bad.json'), '{not json');
    const r = compile('lockfile-sha', { cache_file: join(root, 'bad.json'), refs: [{ ref: 'x' }, 'y'] });
    assert.equal(r.json.ok, true);
    assert.deepEqual(r.json.lockfile, [{ ref: 'x', sha: null, excerpt_sha: null, kind: null }]);
    assert.deepEqual(r.json.warnings.slice(0, 4), [
      `cache_unreadable:${join(root, 'bad.json')}`,
      'ref_no_excerpt:x',
      'sha_not_in_cache:x',
      'non_object_ref_skipped',
    ]);
  });

  it('HIGH-B: a 210 KB excerpt is hashed over the whole payload', () => {
    const big = 'x'.repeat(210_000);
    const r = compile('lockfile-sha', {
      cache_file: null,
      refs: [{ ref: 'r@1', excerpt: big }],
      compiled_from: {},
    });
    assert.equal(r.code, 0);
    assert.equal(r.json.ok, true);
    assert.equal(r.json.lockfile[0].excerpt_sha, sha(big));
  });

  it('LOW-F: refs that are not a list fail closed with refs_not_array; bad JSON is ok:false, exit 0', () => {
    for (const refs of [5, 'abc']) {
      const r = compile('lockfile-sha', { refs });
      assert.equal(r.code, 0);
      assert.equal(r.json.ok, false);
      assert.deepEqual(r.json.warnings, ['refs_not_array']);
    }
    const bad = compile('lockfile-sha', '{nope');
    assert.equal(bad.code, 0);
    assert.equal(bad.json.ok, false);
    const empty = compile('lockfile-sha', '');
    assert.equal(empty.json.ok, true, 'an empty stdin reads as {}');
  });
});
