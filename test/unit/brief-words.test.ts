// The critic-brief webview's words: every key the webview uses has a host translation, the table
// the host sends is checked, the webview formats from it (English when an entry is missing), and
// its source renders no literal text past `w(...)`.
import * as assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import * as l10n from '@vscode/l10n';
import { briefWordTable } from '../../src/extension/brief/briefWords';
import { BRIEF_WORDS, MAX_BRIEF_WORD_CHARS, formatWord } from '../../src/shared/brief-words';
import { BriefWordTable, type PanelState } from '../../src/shared/protocol';
import { toViewModel } from '../../webview/view-model';
import { useWords, w } from '../../webview/words';
import { untranslatedLiterals } from './helpers/webview-literals';

const repo = resolve(__dirname, '../../..');
const webviewDir = join(repo, 'webview');

const UNVERIFIED = BRIEF_WORDS.find((k) => k.startsWith('Unverified:'))!;

function state(): PanelState {
  return {
    session: 's1',
    change: { kind: 'workingTree', label: 'Working tree vs HEAD', base: 'HEAD', head: ':worktree' },
    packet: {
      brief_id: '0123456789abcdef',
      rubric: [],
      baseline: {},
      diff: '',
      verification: '',
      scope: { provenance: 'unverified', declared_paths: null, diff_paths: [], undeclared_paths: [] },
      verdicts: ['PASS'],
      asks: [],
    },
    spent: null,
    canRecord: true,
  };
}

describe('critic brief webview words', () => {
  afterEach(() => {
    l10n.config({ contents: {} });
    useWords({});
  });

  it('has a host translation for every key, and the host asks l10n for that very key', () => {
    const table = briefWordTable();
    assert.deepEqual(Object.keys(table).sort(), [...BRIEF_WORDS].sort());
    // With no bundle l10n.t returns its literal: a key whose host literal differs shows up here.
    const mismatched = BRIEF_WORDS.filter((key) => table[key] !== key);
    assert.deepEqual(mismatched, []);
    assert.equal(new Set(BRIEF_WORDS).size, BRIEF_WORDS.length, 'no key listed twice');
  });

  it('fills the table from the display language bundle, dropping blank or oversized translations', () => {
    l10n.config({
      contents: {
        'Rubric and baseline': 'Rubrique et référence',
        'session {0} · {1}': 'séance {0} · {1}',
        [UNVERIFIED]: 'Non vérifié : rien ne montre que ce diff est tout le changement.',
        'Expand all': '   ',
        'Collapse all': 'x'.repeat(MAX_BRIEF_WORD_CHARS + 1),
      },
    });
    const table = briefWordTable();
    assert.equal(table['Rubric and baseline'], 'Rubrique et référence');
    assert.equal(table['session {0} · {1}'], 'séance {0} · {1}');
    assert.equal(table['Expand all'], undefined, 'a blank translation is dropped');
    assert.equal(table['Collapse all'], undefined, 'an oversized translation is dropped');
    assert.equal(table['Verdict'], 'Verdict', 'untranslated keys stay English');
    assert.ok(BriefWordTable.safeParse(table).success);

    // The webview renders from what the host sent: the model's sentence and the header words.
    useWords(table);
    assert.equal(toViewModel(state()).scope.explanation, table[UNVERIFIED]);
    assert.equal(w('session {0} · {1}', 's1', 'HEAD'), 'séance s1 · HEAD');
    assert.equal(w('Expand all'), 'Expand all', 'a dropped entry reads in English');
  });

  it('the schema accepts known keys with bounded strings only', () => {
    assert.ok(BriefWordTable.safeParse({}).success);
    assert.ok(BriefWordTable.safeParse({ Verdict: 'Verdikt' }).success);
    for (const [what, table] of [
      ['an unknown key', { 'Delete everything': 'x' }],
      ['a number', { Verdict: 7 }],
      ['an object', { Verdict: { message: 'x' } }],
      ['a blank value', { Verdict: '' }],
      ['an oversized value', { Verdict: 'v'.repeat(MAX_BRIEF_WORD_CHARS + 1) }],
    ] as const)
      assert.equal(BriefWordTable.safeParse(table).success, false, what);
  });

  it('the webview falls back to the English key for anything the table lacks or mangles', () => {
    assert.equal(formatWord({}, 'Refused (exit {0}): {1}', 2, 'usage'), 'Refused (exit 2): usage');
    assert.equal(formatWord({ Verdict: 7 }, 'Verdict'), 'Verdict');
    assert.equal(formatWord({ Verdict: 'v'.repeat(MAX_BRIEF_WORD_CHARS + 1) }, 'Verdict'), 'Verdict');
    assert.equal(formatWord(Object.create({ Verdict: 'inherited' }), 'Verdict'), 'Verdict');
    assert.equal(
      formatWord({ 'Recorded as iteration {0}': '{0}. Iteration' }, 'Recorded as iteration {0}', 3),
      '3. Iteration',
    );
    useWords(null);
    assert.equal(w('Verdict'), 'Verdict');
    useWords('not a table');
    assert.equal(w('Scope'), 'Scope');
  });

  it('the webview source renders no literal text past w(...), and uses only known keys', () => {
    const files = readdirSync(webviewDir).filter((f) => f.endsWith('.ts'));
    assert.ok(files.includes('verdict-form.ts') && files.includes('packet-view.ts'));
    const found = files.flatMap((f) => untranslatedLiterals(f, readFileSync(join(webviewDir, f), 'utf8')));
    assert.deepEqual(found, []);
    const known = new Set<string>(BRIEF_WORDS);
    const keys = files.flatMap((f) =>
      [...readFileSync(join(webviewDir, f), 'utf8').matchAll(/\bw\(\s*(['"])((?:(?!\1).)*)\1/g)].map(
        (m) => m[2]!,
      ),
    );
    assert.ok(keys.length > 60, `${keys.length} w() calls found`);
    assert.deepEqual(
      keys.filter((k) => !known.has(k)),
      [],
    );
  });

  it('the source check finds literals in every rendered place (it can fail)', () => {
    const sample = [
      "h('p', {}, 'Loading');",
      "h('span', { title: `Open ${path}` }, w('Scope'));",
      "section('asks', 'What is asked');",
      "group(w('Note'), 'note', field, 'Optional help');",
      "el.textContent = ok ? w('Verdict') : 'failed';",
      "const head = ['Dimension', 'Weight'];",
      "side.setAttribute('aria-label', `${p}, before`);",
      "h('div', { class: 'badge undeclared', id: 'wrap-lines' }, w('undeclared'));",
      "if (message.type === 'Show') render();",
      'const spent = { reason: `verdict recorded as iteration ${n}.` };',
      "side.setAttribute('aria-label', `${p}, ${first ? 'before' : 'after'}`);",
    ].join('\n');
    const lines = untranslatedLiterals('sample.ts', sample).map((f) => f.line);
    assert.deepEqual(
      [...new Set(lines)].sort((a, b) => a - b),
      [1, 2, 3, 4, 5, 6, 7, 10, 11],
    );
  });
});
