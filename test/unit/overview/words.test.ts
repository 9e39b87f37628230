// The overview and dashboard webviews' words: every key the pages use has a host translation, the
// table the host posts is checked, the pages format from it (English when an entry is missing),
// and their source renders no literal text past `w(...)`.
import * as assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import * as l10n from '@vscode/l10n';
import { overviewWordTable } from '../../../src/extension/overview/overviewWords';
import { MAX_BRIEF_WORD_CHARS } from '../../../src/shared/brief-words';
import { OVERVIEW_WORDS, OverviewWordTable, RECORD_FIELDS } from '../../../src/shared/overview-words';
import { recordInWords } from '../../../src/engine/overview/model';
import { syntheticLedger } from './synthetic-ledger';
import { useWords, w } from '../../../webview/overview/words';
import { untranslatedLiterals } from '../helpers/webview-literals';

const pageDir = join(resolve(__dirname, '../../../..'), 'webview', 'overview');

describe('overview and dashboard webview words', () => {
  afterEach(() => {
    l10n.config({ contents: {} });
    useWords({});
  });

  it('has a host translation for every key, and the host asks l10n for that very key', () => {
    const table = overviewWordTable();
    assert.deepEqual(Object.keys(table).sort(), [...OVERVIEW_WORDS].sort());
    assert.deepEqual(
      OVERVIEW_WORDS.filter((key) => table[key] !== key),
      [],
    );
    assert.equal(new Set(OVERVIEW_WORDS).size, OVERVIEW_WORDS.length, 'no key listed twice');
  });

  it('fills the table from the display language bundle, dropping blank or oversized translations', () => {
    l10n.config({
      contents: {
        'Outcome timeline': 'Chronologie des résultats',
        'Iteration #{0}': 'Itération n° {0}',
        Trends: '   ',
        Rubric: 'x'.repeat(MAX_BRIEF_WORD_CHARS + 1),
      },
    });
    const table = overviewWordTable();
    assert.equal(table['Outcome timeline'], 'Chronologie des résultats');
    assert.equal(table.Trends, undefined, 'a blank translation is dropped');
    assert.equal(table.Rubric, undefined, 'an oversized translation is dropped');
    assert.ok(OverviewWordTable.safeParse(table).success);
    useWords(table);
    assert.equal(w('Iteration #{0}', 7), 'Itération n° 7');
    assert.equal(w('Trends'), 'Trends', 'a dropped entry reads in English');
  });

  it('the schema refuses unknown keys and blank values', () => {
    assert.ok(OverviewWordTable.safeParse({}).success);
    assert.equal(OverviewWordTable.safeParse({ 'Not a key': 'x' }).success, false);
    assert.equal(OverviewWordTable.safeParse({ Trends: ' ' }).success, false);
  });

  it('the pages render no literal text past w(...), and use only known keys', () => {
    const files = readdirSync(pageDir).filter((f) => f.endsWith('.ts'));
    assert.ok(files.includes('overview-page.ts') && files.includes('dashboard-page.ts'));
    const found = files.flatMap((f) => untranslatedLiterals(f, readFileSync(join(pageDir, f), 'utf8')));
    assert.deepEqual(found, []);
    const known = new Set<string>(OVERVIEW_WORDS);
    const keys = files.flatMap((f) =>
      [...readFileSync(join(pageDir, f), 'utf8').matchAll(/\bw\(\s*(['"])((?:(?!\1).)*)\1/g)].map(
        (m) => m[2]!,
      ),
    );
    assert.ok(keys.length > 60, `${keys.length} w() calls found`);
    assert.deepEqual(
      keys.filter((k) => !known.has(k)),
      [],
    );
    // Every key is used by a page (a key left behind would be translated for nothing); a record
    // field's name is translated by the side panel from the key the host sends.
    const used = new Set<string>([...keys, ...RECORD_FIELDS]);
    const multiline = files.map((f) => readFileSync(join(pageDir, f), 'utf8')).join('\n');
    assert.deepEqual(
      OVERVIEW_WORDS.filter((k) => !used.has(k) && !multiline.includes(`'${k}'`)),
      [],
    );
  });

  it('every field name of a record in words is a word the page translates', () => {
    const fields = new Set<string>(RECORD_FIELDS);
    for (const key of RECORD_FIELDS) assert.ok((OVERVIEW_WORDS as readonly string[]).includes(key), key);
    // A record with every field the side panel shows, repeat keys included.
    const record = {
      ...syntheticLedger(3).iterations[1]!,
      reported_outcome: 'complete',
      stall: 'no-progress',
      decision: 'KEEP',
      critic_verdict: 'PASS',
      critic_next: 'x',
      critic_brief: 'b-1',
      evidence_paths: ['e.txt'],
      evidence: 'e',
      note: 'n',
      blocker: 'b',
      recommended_next: 'r',
      cost_usd: 0.1,
      tokens_in: 1,
      tokens_out: 2,
      repeat: { classification: 'steady', change_metric: 1 },
    };
    const keys = recordInWords(record as never).map((line) => line.key);
    assert.ok(keys.length >= 20, keys.join(', '));
    assert.deepEqual(
      keys.filter((k) => !fields.has(k)),
      [],
    );
    useWords(overviewWordTable());
    l10n.config({ contents: { 'files changed': 'fichiers modifiés' } });
    useWords(overviewWordTable());
    assert.equal(w('files changed'), 'fichiers modifiés');
  });
});
