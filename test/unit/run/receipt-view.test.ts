import assert from 'node:assert/strict';
import * as l10n from '@vscode/l10n';
import { receiptHtml } from '../../../src/extension/run/receiptHtml';
import { receiptModel } from '../../../src/extension/run/receiptModel';
import { phaseLabel } from '../../../src/extension/run/phaseLabel';

const receipt = {
  schema: 'loop.final_receipt.v1',
  run_id: 'r1',
  objective: 'do <b>it</b>',
  final_verdict: 'BLOCKED',
  stop_reason: 'DISALLOWED_FILE_CHANGE',
  attempts_used: 1,
  max_attempts: 3,
  allowed_globs: ['src/**'],
  changed_files: ['src/a.ts', 'outside.txt'],
  checks: [
    {
      command: 'sleep 9',
      returncode: -125,
      timed_out: true,
      stdout: '.loop/runs/r1/attempts/01/checks/01.stdout',
      stderr: '.loop/runs/r1/attempts/01/checks/01.stderr',
      stdout_excerpt: '',
      stderr_excerpt: 'TIMEOUT',
    },
  ],
  reviewer: { verdict: 'BLOCKED', edited_files: false, findings: ['disallowed file: outside.txt'] },
  artifacts: { run_dir: '.loop/runs/r1', final_diff: '.loop/runs/r1/attempts/01/diff.patch' },
};

describe('run: the receipt viewer’s model and page', () => {
  it('scope, timeouts in words, the stop reason explained, the validator’s verdict', () => {
    const m = receiptModel(receipt);
    assert.deepEqual(m.files, [
      { path: 'src/a.ts', inScope: true },
      { path: 'outside.txt', inScope: false },
    ]);
    assert.equal(m.checks[0]?.words, 'timed out (check)');
    assert.match(m.reasonWords, /outside the allowed globs/);
    assert.deepEqual(m.validatorErrors, []);
    assert.ok(m.openable.includes('.loop/runs/r1/attempts/01/diff.patch'));
    assert.ok(m.openable.includes('outside.txt'));
    assert.ok(!m.openable.includes('/etc/passwd'));
    const invalid = receiptModel({ ...receipt, attempts_used: true });
    assert.ok(invalid.validatorErrors.includes('receipt.attempts_used: expected non-negative integer'));
  });

  it('the page escapes every value and allows only its own nonce', () => {
    const html = receiptHtml(receiptModel(receipt), 'vscode-resource:');
    assert.ok(html.includes('do &lt;b&gt;it&lt;/b&gt;'));
    assert.ok(!html.includes('<b>it</b>'));
    assert.match(html, /default-src 'none'/);
    const nonce = /script-src 'nonce-([^']+)'/.exec(html)?.[1];
    assert.ok(nonce);
    assert.equal(html.match(/<script /g)?.length, 1);
    assert.ok(html.includes(`<script nonce="${nonce}">`));
    assert.match(html, /OUT OF SCOPE/);
  });

  it('the page’s own words come from the display language bundle, escaped; the validator’s stay', () => {
    l10n.config({
      contents: {
        'Changed files': 'Fichiers <modifiés>',
        'OUT OF SCOPE': 'HORS PÉRIMÈTRE',
        'Reviewer: {0}': 'Relecteur : {0}',
        'Receipt {0}': 'Reçu {0}',
      },
    });
    try {
      const html = receiptHtml(receiptModel(receipt), 'vscode-resource:');
      assert.ok(html.includes('<h2>Fichiers &lt;modifiés&gt;</h2>'), 'translated and escaped');
      assert.ok(!html.includes('<modifiés>'));
      assert.match(html, /HORS PÉRIMÈTRE/);
      assert.match(html, /<h2>Relecteur : BLOCKED<\/h2>/);
      assert.match(html, /<title>Reçu r1<\/title>/);
      assert.match(html, /LOOP RECEIPT VALID/, 'the validator’s words are the CLI’s');
      assert.match(html, /<h2>Checks<\/h2>/, 'an untranslated word stays English');
    } finally {
      l10n.config({ contents: {} });
    }
  });

  it('phase labels: explorer, attempt n/max with the step, elapsed against the timeout', () => {
    const at = 1_000_000;
    assert.equal(phaseLabel(undefined), 'starting');
    assert.equal(
      phaseLabel(
        { phase: { kind: 'explorer' }, maxAttempts: 3, startedAt: at, timeoutSeconds: 60 },
        at + 4200,
      ),
      'explorer · 4s / 60s',
    );
    assert.equal(
      phaseLabel(
        {
          phase: { kind: 'check', attempt: 2, index: 1, count: 2, command: 'x' },
          maxAttempts: 3,
          startedAt: at,
          timeoutSeconds: 300,
        },
        at,
      ),
      'attempt 2/3: check 1/2 · 0s / 300s',
    );
    assert.equal(
      phaseLabel(
        { phase: { kind: 'code-reviewer', attempt: 1 }, maxAttempts: 1, startedAt: at, timeoutSeconds: 9 },
        at,
      ),
      'attempt 1/1: code-reviewer · 0s / 9s',
    );
  });
});
