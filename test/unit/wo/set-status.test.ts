// `wo compile set-status` and `assert-dispatchable`: the legal-transition table, the deps guard,
// the surgical single-line write (unknown keys and CRs kept byte for byte) and the dispatch gate.
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { statusLineCount, withStatus } from '../../../src/engine/workorders/frontmatter';
import { runCli } from '../helpers/cli';
import { makeTask, statusOf, woText } from './fixture';

const setStatus = (file: string, to?: string) =>
  runCli(['wo', 'compile', 'set-status', file, ...(to ? [to] : [])]);
const gate = (file?: string) => runCli(['wo', 'compile', 'assert-dispatchable', ...(file ? [file] : [])]);

describe('wo compile set-status (the transition table)', () => {
  const legal: [string, string, string][] = [
    ['blocked', 'ready', 'deps_cleared'],
    ['ready', 'in_progress', 'dispatch'],
    ['in_progress', 'done', 'ok'],
    ['in_progress', 'needs_rework', 'ok'],
    ['needs_rework', 'ready', 'requeue'],
  ];
  for (const [from, to, reason] of legal) {
    it(`${from} → ${to} is legal (${reason}) and rewrites only the status line`, () => {
      const t = makeTask([{ n: 1, status: from }]);
      const before = readFileSync(t.file(1), 'utf8');
      const r = setStatus(t.file(1), to);
      assert.equal(r.code, 0);
      assert.deepEqual(r.json, {
        ok: true,
        wo: 'local:t#wo-01',
        previous_status: from,
        new_status: to,
        changed: true,
        reason,
      });
      assert.equal(r.stderr, '');
      assert.equal(readFileSync(t.file(1), 'utf8'), before.replace(`status: ${from}\n`, `status: ${to}\n`));
    });
  }

  it('every other pair is illegal_transition:<from>-><to>, exit 1, no write (done is final; ready → needs_rework illegal)', () => {
    const statuses = ['ready', 'blocked', 'in_progress', 'done', 'needs_rework'];
    const legalPairs = new Set(legal.map(([f, t]) => `${f}:${t}`));
    for (const from of statuses) {
      for (const to of statuses) {
        if (from === to || legalPairs.has(`${from}:${to}`)) continue;
        const t = makeTask([{ n: 1, status: from }]);
        const before = readFileSync(t.file(1), 'utf8');
        const r = setStatus(t.file(1), to);
        assert.equal(r.code, 1, `${from}->${to}`);
        assert.equal(r.json.reason, `illegal_transition:${from}->${to}`);
        assert.equal(r.json.changed, false);
        assert.equal(readFileSync(t.file(1), 'utf8'), before);
      }
    }
  });

  it('x → x is a no-op: ok, changed false, noop_same_status, file untouched', () => {
    const t = makeTask([{ n: 1, status: 'done' }]);
    const before = readFileSync(t.file(1), 'utf8');
    const r = setStatus(t.file(1), 'done');
    assert.equal(r.code, 0);
    assert.deepEqual(r.json, {
      ok: true,
      wo: 'local:t#wo-01',
      previous_status: 'done',
      new_status: 'done',
      changed: false,
      reason: 'noop_same_status',
    });
    assert.equal(readFileSync(t.file(1), 'utf8'), before);
  });

  it('an off-enum target or current status is invalid_status:<v>; a missing argument exits 2', () => {
    const t = makeTask([{ n: 1, status: 'ready' }]);
    let r = setStatus(t.file(1), 'shipped; rm -rf /');
    assert.equal(r.code, 1);
    assert.deepEqual(r.json, {
      ok: false,
      wo: null,
      previous_status: null,
      new_status: 'shipped; rm -rf /',
      changed: false,
      reason: 'invalid_status:shipped; rm -rf /',
    });
    writeFileSync(t.file(1), woText({ n: 1, status: 'weird' }));
    r = setStatus(t.file(1), 'ready');
    assert.equal(r.json.reason, 'invalid_status:weird');
    r = setStatus(t.file(1));
    assert.equal(r.code, 2);
    assert.equal(r.json.reason, 'missing_arg');
  });

  it('two status lines never get a guessed write: ambiguous_status_field (as the original names it), file untouched', () => {
    const t = makeTask([{ n: 1, status: 'ready', extra: 'status: ready' }]);
    const before = readFileSync(t.file(1), 'utf8');
    const r = setStatus(t.file(1), 'in_progress');
    assert.equal(r.code, 1);
    assert.equal(r.json.ok, false);
    assert.equal(r.json.reason, 'ambiguous_status_field');
    assert.equal(r.json.previous_status, 'ready');
    assert.equal(r.json.changed, false);
    assert.equal(readFileSync(t.file(1), 'utf8'), before);
    // The last status line is the one read (the original's YAML reader), so an edge from it that
    // is illegal is refused as such, before the line count.
    const t2 = makeTask([{ n: 1, status: 'ready', extra: 'status: done' }]);
    assert.equal(setStatus(t2.file(1), 'in_progress').json.reason, 'illegal_transition:done->in_progress');
    // A repeated key anywhere else is still unreadable for every other reader (the dispatch gate).
    const t3 = makeTask([{ n: 1, status: 'ready', extra: 'verified: false' }]);
    const refused = gate(t3.file(1));
    assert.equal(refused.code, 1);
    assert.match(String(refused.json.reason), /^frontmatter_unreadable:/);
  });

  it('engine: the write counts status lines in the frontmatter only and never touches the body', () => {
    const text = '---\nstatus: ready\nstatus: ready\n---\nstatus: in the body\n';
    assert.equal(statusLineCount(text), 2);
    assert.equal(statusLineCount('---\nstatus: ready\n---\nstatus: x\n'), 1);
    assert.equal(
      withStatus('---\nstatus: ready\n---\nstatus: x\n', 'done'),
      '---\nstatus: done\n---\nstatus: x\n',
    );
    assert.equal(withStatus('no fence\nstatus: x\n', 'done'), 'no fence\nstatus: x\n');
  });

  it('byte-identical round trip: unknown keys, comments, quoting, timestamps and the body are kept', () => {
    const t = makeTask([{ n: 1, status: 'ready', extra: 'weird_key: {a: [1, 2], \'b\': "c"}  # comment' }]);
    const before = readFileSync(t.file(1), 'utf8');
    assert.equal(setStatus(t.file(1), 'in_progress').code, 0);
    assert.equal(setStatus(t.file(1), 'needs_rework').code, 0);
    assert.equal(setStatus(t.file(1), 'ready').code, 0);
    assert.equal(readFileSync(t.file(1), 'utf8'), before);
  });

  it('CRLF files keep their CR on the status line and everywhere else', () => {
    const t = makeTask([{ n: 1, status: 'ready' }]);
    const crlf = readFileSync(t.file(1), 'utf8').replace(/\n/g, '\r\n');
    writeFileSync(t.file(1), crlf);
    assert.equal(setStatus(t.file(1), 'in_progress').code, 0);
    assert.equal(
      readFileSync(t.file(1), 'utf8'),
      crlf.replace('status: ready\r\n', 'status: in_progress\r\n'),
    );
  });

  it('deps: blocked → ready needs every blocked_by done; not done, missing, slugless and glob ids refuse', () => {
    const t = makeTask([
      { n: 1, status: 'in_progress' },
      { n: 2, blockedBy: [1] },
    ]);
    let r = setStatus(t.file(2), 'ready');
    assert.equal(r.code, 1);
    assert.equal(r.json.reason, 'deps_not_done:local:t#wo-01');
    assert.equal(statusOf(t.file(2)), 'blocked');
    writeFileSync(t.file(1), woText({ n: 1, status: 'done' }));
    r = setStatus(t.file(2), 'ready');
    assert.equal(r.code, 0);
    assert.equal(r.json.reason, 'deps_cleared');

    const u = makeTask([{ n: 3, blockedBy: [9] }]);
    assert.equal(setStatus(u.file(3), 'ready').json.reason, 'deps_unresolvable:local:t#wo-09');
    writeFileSync(join(u.dir, 'wo-09.md'), woText({ n: 9, status: 'done' })); // slugless: not resolvable
    assert.equal(setStatus(u.file(3), 'ready').json.reason, 'deps_unresolvable:local:t#wo-09');
    writeFileSync(join(u.dir, 'wo-09-a.md'), woText({ n: 9, status: 'done' }));
    writeFileSync(join(u.dir, 'wo-09-b.md'), woText({ n: 9, status: 'done' }));
    assert.equal(
      setStatus(u.file(3), 'ready').json.reason,
      'deps_unresolvable:local:t#wo-09',
      'two matches are ambiguous',
    );

    const g = makeTask([{ n: 4, status: 'blocked', extra: '' }]);
    writeFileSync(
      g.file(4),
      woText({ n: 4, status: 'blocked' }).replace('blocked_by: []', 'blocked_by: ["local:t#wo-*"]'),
    );
    assert.equal(setStatus(g.file(4), 'ready').json.reason, 'deps_unresolvable:local:t#wo-*');
    writeFileSync(g.file(4), woText({ n: 4, status: 'blocked' }));
    assert.equal(setStatus(g.file(4), 'ready').code, 0, 'an empty blocked_by passes');
  });

  it('unsafe YAML is unreadable, never expanded: an alias refuses; a timestamp stays a string', () => {
    const t = makeTask([{ n: 1, status: 'ready', extra: 'a: &x [1]\nb: *x' }]);
    const r = setStatus(t.file(1), 'in_progress');
    assert.equal(r.code, 1);
    assert.equal(r.json.reason, 'frontmatter_unreadable');
    const fm = runCli(['wo', 'compile', 'frontmatter', makeTask([{ n: 2 }]).file(2)]);
    assert.equal(fm.json.compiled_at, '2026-06-01T10:00:00Z');
    assert.equal(fm.json.custom_key, 'keep');
    const missing = setStatus(join(t.dir, 'nope.md'), 'ready');
    assert.equal(missing.json.reason, 'frontmatter_unreadable');
  });
});

describe('wo compile assert-dispatchable (the dispatch gate)', () => {
  function withFrontmatter(change: (text: string) => string): string {
    const t = makeTask([{ n: 1, status: 'ready' }]);
    writeFileSync(t.file(1), change(readFileSync(t.file(1), 'utf8')));
    return t.file(1);
  }

  it('ready + clean grounding is dispatchable (exit 0)', () => {
    const r = gate(withFrontmatter((s) => s));
    assert.equal(r.code, 0);
    assert.deepEqual(r.json, { dispatchable: true, reason: 'dispatchable', override_used: false });
  });

  it('grounding refusals in kernel order: poisoned, uncovered, verified_false, unpinned_ref, drift_skipped, drift_unresolved, acceptance_not_runnable', () => {
    const cases: [string, (s: string) => string][] = [
      [
        'poisoned',
        (s) =>
          s
            .replace('coverage_status: covered', 'coverage_status: poisoned')
            .replace('verified: true', 'verified: false'),
      ],
      ['uncovered', (s) => s.replace('coverage_status: covered', 'coverage_status: uncovered')],
      ['verified_false', (s) => s.replace('verified: true', 'verified: "true"')],
      ['unpinned_ref', (s) => s.replace('lockfile: []', 'lockfile: [{ref: a, sha: null}]')],
      ['drift_skipped', (s) => s.replace('symbols_resolved: true', 'symbols_resolved: skipped')],
      ['drift_unresolved', (s) => s.replace('  symbols_resolved: true\n', '')],
      [
        'acceptance_not_runnable',
        (s) => s.replace('acceptance_runnable: true', 'acceptance_runnable: false'),
      ],
    ];
    for (const [reason, change] of cases) {
      const r = gate(withFrontmatter(change));
      assert.equal(r.code, 1, reason);
      assert.deepEqual(r.json, { dispatchable: false, reason, override_used: false }, reason);
    }
  });

  it('a complete override bypasses grounding (override_used) but never status; a partial one does not', () => {
    const override = 'coverage_override: {reason: "vendor lib", by: "ana", at: "2026-06-01T09:00:00Z"}';
    let r = gate(
      withFrontmatter((s) =>
        s.replace('verified: true', 'verified: false').replace('coverage_override: null', override),
      ),
    );
    assert.equal(r.code, 0);
    assert.deepEqual(r.json, { dispatchable: true, reason: 'dispatchable', override_used: true });
    r = gate(
      withFrontmatter((s) =>
        s
          .replace('verified: true', 'verified: false')
          .replace('coverage_override: null', 'coverage_override: {reason: x, by: ""}'),
      ),
    );
    assert.equal(r.json.reason, 'verified_false');
    r = gate(
      withFrontmatter((s) =>
        s.replace('status: ready', 'status: blocked').replace('coverage_override: null', override),
      ),
    );
    assert.equal(r.code, 1);
    assert.equal(r.json.reason, 'status_not_ready:blocked');
    r = gate(withFrontmatter((s) => s.replace('coverage_override: null', override)));
    assert.equal(r.json.override_used, false, 'clean grounding uses no override');
  });

  it('unreadable frontmatter refuses with its reason; no file argument exits 2 (no_wo_file)', () => {
    const r = gate(withFrontmatter((s) => s.replace('---\n', 'no fence\n')));
    assert.equal(r.code, 1);
    assert.equal(r.json.reason, 'frontmatter_unreadable:no_frontmatter');
    const none = gate();
    assert.equal(none.code, 2);
    assert.deepEqual(none.json, { dispatchable: false, reason: 'no_wo_file', override_used: false });
  });
});
