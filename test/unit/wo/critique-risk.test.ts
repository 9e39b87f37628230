// `wo critique-aggregate` (fail-closed verdict math over critic files) and `wo risk-classify`
// (tiers from our own rules data). Both always exit 0.
import assert from 'node:assert/strict';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { runCli, tempRoot } from '../helpers/cli';

function critics(files: Record<string, string>): string {
  const dir = tempRoot('wo-crit-');
  for (const [name, body] of Object.entries(files)) writeFileSync(join(dir, name), body);
  return dir;
}
const agg = (dir: string, ...extra: string[]) =>
  runCli([
    'wo',
    'critique-aggregate',
    '--wo',
    'wo-01',
    '--tier',
    'medium',
    '--mode',
    'fanout',
    '--expected',
    '1',
    '--critics-dir',
    dir,
    '--evaluated',
    'true',
    '--run-at',
    '2026-01-01T00:00:00Z',
    ...extra,
  ]);
const critic = (verdict: string, findings: unknown[] = []) =>
  JSON.stringify({ lens: 'correctness', verdict, findings });

describe('wo critique-aggregate', () => {
  it('one passing critic: overall pass, not blocking, envelope keys in order', () => {
    const r = agg(critics({ 'wo-01.critic-correctness.json': critic('pass') }));
    assert.equal(r.code, 0);
    assert.deepEqual(Object.keys(r.json), [
      'schema_version',
      'wo_id',
      'risk_tier',
      'run_at',
      'mode',
      'evaluated',
      'required',
      'expected_critics',
      'clean_returns',
      'present',
      'missing',
      'critics',
      'overall',
      'blocking',
      'degraded',
      'diff_empty',
      'halt_reason',
      'not_dispatched',
    ]);
    assert.equal(r.json.overall, 'pass');
    assert.equal(r.json.blocking, false);
    assert.equal(r.json.clean_returns, 1);
    assert.equal(r.json.critics[0].effective, 'pass');
  });

  it('a critical finding (synonyms included) blocks with critique_critical', () => {
    for (const severity of ['critical', 'SEVERE', 'high', 'blocker']) {
      const r = agg(critics({ 'wo-01.critic-security.json': critic('pass', [{ severity, text: 'x' }]) }));
      assert.equal(r.json.overall, 'critical', severity);
      assert.equal(r.json.blocking, true);
      assert.equal(r.json.halt_reason, 'critique_critical');
    }
  });

  it('fail-closed: unreadable file, unknown verdict or severity count as unresolved; missing critics too', () => {
    let r = agg(critics({ 'wo-01.critic-a.json': '{oops' }));
    assert.equal(r.json.critics[0].effective, 'unresolved');
    assert.equal(r.json.overall, 'concern', 'medium tier: unresolved is a concern');
    r = agg(critics({ 'wo-01.critic-a.json': critic('looks fine') }), '--tier', 'high');
    assert.equal(r.json.overall, 'critical', 'high tier: unresolved is critical');
    r = agg(critics({ 'wo-01.critic-a.json': critic('pass', [{ severity: 'meh' }]) }), '--required');
    assert.equal(r.json.blocking, true);
    assert.equal(r.json.halt_reason, 'required_unresolved');
    r = agg(critics({}), '--expected', '2');
    assert.equal(r.json.missing, 2);
    assert.equal(r.json.overall, 'concern');
  });

  it('diff_empty ⇒ critical; not evaluated ⇒ not_evaluated (blocking only when required); degraded high blocks', () => {
    let r = agg(critics({}), '--diff-empty');
    assert.equal(r.json.halt_reason, 'diff_empty');
    r = agg(critics({}), '--evaluated', 'false');
    assert.equal(r.json.overall, 'not_evaluated');
    assert.equal(r.json.blocking, false);
    r = agg(critics({}), '--evaluated', 'false', '--required');
    assert.equal(r.json.halt_reason, 'not_evaluated_required');
    r = agg(
      critics({ 'wo-01.critic-a.json': critic('pass') }),
      '--tier',
      'high',
      '--mode',
      'team-fallback-to-fanout',
    );
    assert.equal(r.json.halt_reason, 'degraded_high');
  });

  it('schema 2.0 findings must carry where/remedy/id; a malformed one floors the file at unresolved', () => {
    const body = JSON.stringify({
      lens: 'correctness',
      verdict: 'concern',
      schema_version: '2.0',
      findings: [{ severity: 'concern', text: 'x', id: 'f1' }],
    });
    const r = agg(critics({ 'wo-01.critic-a.json': body }));
    assert.equal(r.json.critics[0].shape_check, 'fail');
    assert.equal(r.json.critics[0].effective, 'unresolved');
    assert.match(r.json.critics[0].shape_check_reason, /^finding\[0\]: where\[\]/);
  });

  it('--not-dispatched accepts only correctness with a reason; anything else counts as missing', () => {
    const r = agg(
      critics({ 'wo-01.critic-a.json': critic('pass') }),
      '--not-dispatched',
      'correctness:no body',
      '--not-dispatched',
      'security:',
    );
    assert.deepEqual(r.json.not_dispatched, [
      { lens: 'correctness', reason: 'no body', accepted: true },
      { lens: 'security', reason: '', accepted: false },
    ]);
    assert.equal(r.json.missing, 1);
  });
});

describe('wo risk-classify', () => {
  function list(...files: string[]): string {
    const path = join(tempRoot('wo-risk-'), 'files.txt');
    writeFileSync(path, files.join('\n') + '\n');
    return path;
  }
  const classify = (...args: string[]) => runCli(['wo', 'risk-classify', ...args]);

  it('low for docs, medium for code, high for a security path, a recipe-added gate or a collapsed SCC', () => {
    assert.equal(
      classify('--files-from', list('docs/a.md'), '--gate-floor', 'tests,lint').json.risk_tier,
      'low',
    );
    const medium = classify('--files-from', list('src/a.ts', 'README.md'), '--gate-floor', 'tests');
    assert.equal(medium.json.risk_tier, 'medium');
    assert.equal(medium.json.trigger, 'executable_change');
    assert.deepEqual(medium.json.diff_signature, ['md', 'ts']);
    assert.equal(
      classify('--files-from', list('src/auth/login.ts'), '--gate-floor', 'tests').json.trigger,
      'security_glob',
    );
    assert.equal(
      classify('--files-from', list('docs/a.md'), '--gate-floor', 'tests,visual').json.trigger,
      'recipe_added_gate',
    );
    assert.equal(
      classify('--files-from', list('docs/a.md'), '--gate-floor', 'tests', '--collapsed-scc', 'true').json
        .trigger,
      'collapsed_scc',
    );
  });

  describe("the plugin's own rules ($CLAUDE_PLUGIN_ROOT/references/risk-tiering-rules.json)", () => {
    /** A plugin root whose rules file holds `rules` (text as given, or JSON of an object). */
    function plugin(rules: string | object): string {
      const root = tempRoot('wo-plugin-');
      mkdirSync(join(root, 'references'));
      writeFileSync(
        join(root, 'references', 'risk-tiering-rules.json'),
        typeof rules === 'string' ? rules : JSON.stringify(rules),
      );
      return root;
    }
    const RULES = {
      schema_version: '1.0',
      security_globs: ['*Access*.php', '*.htaccess'],
      executable_extensions: ['php', 'twig'],
      base_gate_floor: ['tdd', 'solid', 'dry', 'security', 'guides'],
    };
    const withPlugin = (root: string, ...args: string[]) =>
      runCli(['wo', 'risk-classify', ...args], { env: { CLAUDE_PLUGIN_ROOT: root } });

    it("its gate floor is the base: the spec's floor is no added gate; one beyond it is", () => {
      const root = plugin(RULES);
      const floor = 'tdd,solid,dry,security,guides';
      const docs = withPlugin(root, '--files-from', list('docs/a.md'), '--gate-floor', floor);
      assert.equal(docs.json.risk_tier, 'low', JSON.stringify(docs.json));
      assert.equal(docs.json.trigger, 'none');
      // Without the plugin the same floor reads as recipe-added (our base differs): the file decides.
      assert.equal(
        classify('--files-from', list('docs/a.md'), '--gate-floor', floor).json.trigger,
        'recipe_added_gate',
      );
      assert.equal(
        withPlugin(root, '--files-from', list('docs/a.md'), '--gate-floor', `${floor},a11y`).json.trigger,
        'recipe_added_gate',
      );
    });

    it('its globs and extensions, not ours', () => {
      const root = plugin(RULES);
      const floor = 'tdd,security';
      const twig = withPlugin(root, '--files-from', list('templates/x.twig'), '--gate-floor', floor);
      assert.equal(twig.json.trigger, 'executable_change', "twig is code in the plugin's rules");
      assert.equal(
        withPlugin(root, '--files-from', list('src/UserAccessCheck.php'), '--gate-floor', floor).json.trigger,
        'security_glob',
      );
      // `.ts` is code in our rules but not in this file's.
      assert.equal(
        withPlugin(root, '--files-from', list('src/a.ts'), '--gate-floor', floor).json.risk_tier,
        'low',
      );
    });

    it('a plugin root without the file: ours apply; a file that is not a JSON object: fail-closed high', () => {
      const empty = tempRoot('wo-plugin-');
      assert.equal(
        withPlugin(empty, '--files-from', list('src/a.ts'), '--gate-floor', 'tests').json.trigger,
        'executable_change',
      );
      const broken = withPlugin(
        plugin('{ not json'),
        '--files-from',
        list('docs/a.md'),
        '--gate-floor',
        'tdd',
      );
      assert.equal(broken.code, 0, 'risk-classify always exits 0');
      assert.equal(broken.json.risk_tier, 'high');
      assert.equal(broken.json.trigger, 'unresolved:rules_unreadable');
    });
  });

  it('fail-closed high: no list, empty diff, no gate floor; reads gate_floor from the WO file', () => {
    assert.equal(classify('--gate-floor', 'tests').json.trigger, 'unresolved:files_missing');
    assert.equal(
      classify('--files-from', list(), '--gate-floor', 'tests').json.trigger,
      'unresolved:empty_diff',
    );
    assert.equal(classify('--files-from', list('a.md')).json.trigger, 'unresolved:gate_floor_missing');
    const wo = join(tempRoot('wo-risk-'), 'wo-01-x.md');
    writeFileSync(wo, '---\nid: wo-01\ngate_floor: [tests, lint]\n---\n');
    const r = classify(wo, '--files-from', list('a.md'));
    assert.equal(r.code, 0);
    assert.equal(r.json.risk_tier, 'low');
  });
});
