import * as vscode from 'vscode';
import { DIAGNOSTIC_SOURCE, type ContractDiagnostics } from './contractDiagnostics';
import { fixesFor } from './contractFixes';
import { minimalReplacement } from './jsonTextEdits';

/**
 * Quick fixes on Loop Ledger's contract diagnostics. A diagnostic is matched back to the finding
 * it came from by code and range, so each fix knows the finding's JSON path.
 */
export class ContractQuickFixes implements vscode.CodeActionProvider {
  static readonly providedCodeActionKinds = [vscode.CodeActionKind.QuickFix];

  constructor(private readonly diagnostics: ContractDiagnostics) {}

  provideCodeActions(
    document: vscode.TextDocument,
    _range: vscode.Range,
    context: vscode.CodeActionContext,
  ): vscode.CodeAction[] {
    const check = this.diagnostics.current(document);
    if (!check?.parsed) return [];
    const text = document.getText();
    const format = formattingOptions(document);
    // Keyed by title and result: several findings on one spot (two missing fields are both
    // marked on the object's brace) share one fix instead of listing it twice.
    const actions = new Map<string, vscode.CodeAction>();
    for (const diagnostic of context.diagnostics) {
      if (diagnostic.source !== DIAGNOSTIC_SOURCE) continue;
      const finding = check.findings.find(
        (f) => f.code === diagnostic.code && f.range.isEqual(diagnostic.range),
      );
      if (!finding) continue;
      for (const fix of fixesFor(text, finding, check.findings, format)) {
        const key = `${fix.title}\n${fix.newText}`;
        const same = actions.get(key);
        if (same) {
          same.diagnostics?.push(diagnostic);
          continue;
        }
        const action = new vscode.CodeAction(fix.title, vscode.CodeActionKind.QuickFix);
        const change = minimalReplacement(text, fix.newText);
        action.edit = new vscode.WorkspaceEdit();
        action.edit.replace(
          document.uri,
          new vscode.Range(
            document.positionAt(change.offset),
            document.positionAt(change.offset + change.length),
          ),
          change.text,
        );
        action.diagnostics = [diagnostic];
        action.isPreferred = fix.preferred;
        actions.set(key, action);
      }
    }
    return [...actions.values()];
  }
}

/** Indent new members the way the document's editor does (it detects the file's own indentation). */
function formattingOptions(document: vscode.TextDocument) {
  const editor = vscode.window.visibleTextEditors.find((e) => e.document === document);
  const config = vscode.workspace.getConfiguration('editor', document);
  const tabSize = editor?.options.tabSize ?? config.get<number>('tabSize', 2);
  const insertSpaces = editor?.options.insertSpaces ?? config.get<boolean>('insertSpaces', true);
  return {
    tabSize: typeof tabSize === 'number' ? tabSize : 2,
    insertSpaces: insertSpaces !== false,
    eol: document.eol === vscode.EndOfLine.CRLF ? '\r\n' : '\n',
  };
}
