// The lint rule that keeps new words translatable: in src/extension, a string literal, template
// or concatenation handed straight to a message, quick input, progress, diagnostic, code action,
// lens or tooltip is an error; the same text through l10n.t is not.
import * as assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { join, resolve } from 'node:path';

const repo = resolve(__dirname, '../../../..');

interface LintMessage {
  ruleId: string | null;
  line: number;
}

/** ESLint's messages for `code` as if it were a file in src/extension. */
function lint(code: string, file = 'src/extension/lintProbe.ts'): LintMessage[] {
  const eslint = join(repo, 'node_modules', 'eslint', 'bin', 'eslint.js');
  const r = spawnSync(process.execPath, [eslint, '--stdin', '--stdin-filename', file, '--format', 'json'], {
    cwd: repo,
    input: code,
    encoding: 'utf8',
  });
  const [result] = JSON.parse(r.stdout) as { messages: LintMessage[] }[];
  return result!.messages;
}

const untranslatedLines = (code: string, file?: string): number[] =>
  lint(code, file)
    .filter((m) => m.ruleId === 'no-restricted-syntax')
    .map((m) => m.line);

describe('lint: words through l10n.t', function () {
  this.timeout(120_000);

  it('refuses a literal, template or concatenation in each place a person reads it', () => {
    const code = [
      "import * as vscode from 'vscode';",
      'export async function probe(p: { pickOne(r: object): void }, name: string): Promise<void> {',
      "  void vscode.window.showInformationMessage('Loop Ledger: saved.');",
      '  void vscode.window.showErrorMessage(`Loop Ledger: ${name} failed.`);',
      "  void vscode.window.showWarningMessage('Loop Ledger: ' + name);",
      "  await vscode.window.withProgress({ location: 15, title: 'Working' }, async () => undefined);",
      "  p.pickOne({ id: 'x', title: 'Pick one', placeholder: 'Which?', items: [] });",
      "  const item = vscode.window.createStatusBarItem(); item.tooltip = 'Click for status';",
      "  void new vscode.Diagnostic(new vscode.Range(0, 0, 0, 0), 'Bad value', 0);",
      "  void new vscode.CodeAction('Fix it');",
      '}',
    ].join('\n');
    assert.deepEqual([...new Set(untranslatedLines(code))], [3, 4, 5, 6, 7, 8, 9, 10]);
  });

  it('refuses an l10n.t message that is not one string literal (the export could not read it)', () => {
    const code = [
      "import * as vscode from 'vscode';",
      "import * as l10n from '@vscode/l10n';",
      "const key = 'Open Loop';",
      'export const a = vscode.l10n.t(key);',
      'export const b = l10n.t(`Open ${key}`);',
      "export const c = l10n.t('Open {0}', key);",
    ].join('\n');
    assert.deepEqual(untranslatedLines(code), [4, 5]);
  });

  it('accepts the same words through vscode.l10n.t, and leaves code outside src/extension alone', () => {
    const code = [
      "import * as vscode from 'vscode';",
      'export async function probe(p: { pickOne(r: object): void }, name: string): Promise<void> {',
      "  void vscode.window.showInformationMessage(vscode.l10n.t('Loop Ledger: saved.'));",
      "  void vscode.window.showErrorMessage(vscode.l10n.t('Loop Ledger: {0} failed.', name));",
      "  await vscode.window.withProgress({ location: 15, title: vscode.l10n.t('Working') }, async () => undefined);",
      "  p.pickOne({ id: 'x', title: vscode.l10n.t('Pick one'), items: [] });",
      "  void new vscode.Diagnostic(new vscode.Range(0, 0, 0, 0), vscode.l10n.t('Bad value'), 0);",
      '}',
    ].join('\n');
    assert.deepEqual(untranslatedLines(code), []);
    assert.deepEqual(
      untranslatedLines(
        "export const shout = (): void => void console.log({ title: 'CLI words' });",
        'src/cli/probe.ts',
      ),
      [],
    );
  });
});
