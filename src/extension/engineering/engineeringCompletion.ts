import * as vscode from 'vscode';
import { FIELD_HELP, FIELD_TEMPLATE } from '../../engine/engineering/descriptions';
import { MODE_WORDS, MODES, REQUIRED_FIELDS, TOPOLOGIES, displayName } from '../../engine/engineering/fields';
import { parseEngineeringMarkdown } from '../../engine/engineering/parse-md';

/**
 * Completion in `.loop.md` contracts: field names at the start of a line (the ones not written
 * yet first), and the mode and topology words after `Mode:` / `Topology:`.
 */
export class EngineeringCompletion implements vscode.CompletionItemProvider {
  provideCompletionItems(document: vscode.TextDocument, position: vscode.Position): vscode.CompletionItem[] {
    const before = document.lineAt(position.line).text.slice(0, position.character);
    const valueOf = /^\s*(?:[-*+]\s+)?(?:\*\*)?(mode|topology)(?:\*\*)?\s*:\s*\S*$/i.exec(before);
    if (valueOf) {
      const words = valueOf[1]!.toLowerCase() === 'mode' ? MODES.map((m) => MODE_WORDS[m]) : [...TOPOLOGIES];
      return words.map((word, i) => {
        const item = new vscode.CompletionItem(word, vscode.CompletionItemKind.EnumMember);
        item.sortText = String(i);
        return item;
      });
    }
    if (!/^\s*(?:[-*+]\s+)?(?:\*\*)?[\w -]*$/.test(before)) return [];
    const written = parseEngineeringMarkdown(document.getText()).fields;
    return REQUIRED_FIELDS.map((field) => {
      const item = new vscode.CompletionItem(displayName(field), vscode.CompletionItemKind.Field);
      const filled = (written.get(field) ?? '') !== '';
      item.insertText = new vscode.SnippetString(
        `${displayName(field)}: \${1:${FIELD_TEMPLATE[field].replace(/[$}\\]/g, '\\$&')}}`,
      );
      item.detail = filled ? vscode.l10n.t('already written') : vscode.l10n.t('required');
      item.documentation = new vscode.MarkdownString(FIELD_HELP[field]);
      item.sortText = `${filled ? 1 : 0}${field}`;
      return item;
    });
  }
}
