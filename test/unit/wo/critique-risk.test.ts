// `wo critique-aggregate` (fail-closed verdict math over critic files) and `wo risk-classify`
// (tiers from our own rules data). Both always exit 0.
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
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
