import * as vscode from 'vscode';
import { DIAGNOSTIC_SOURCE, findingRange, type EngineeringDiagnostics } from './engineeringDiagnostics';
import { engineeringFixes } from './engineeringFixes';

/** Quick fixes on `.loop.md` diagnostics, matched back to their finding by code and range. */
export class EngineeringQuickFixes implements vscode.CodeActionProvider {
  static readonly providedCodeActionKinds = [vscode.CodeActionKind.QuickFix];

  constructor(private readonly diagnostics: EngineeringDiagnostics) {}

  provideCodeActions(
    document: vscode.TextDocument,
    _range: vscode.Range,
    context: vscode.CodeActionContext,
  ): vscode.CodeAction[] {
    const check = this.diagnostics.current(document);
    if (!check) return [];
    const lines = Array.from({ length: document.lineCount }, (_, i) => document.lineAt(i).text);
    const eol = document.eol === vscode.EndOfLine.CRLF ? '\r\n' : '\n';
    const actions = new Map<string, vscode.CodeAction>();
    for (const diagnostic of context.diagnostics) {
      if (diagnostic.source !== DIAGNOSTIC_SOURCE) continue;
      const finding = check.findings.find(
        (f) => f.code === diagnostic.code && findingRange(document, check, f).isEqual(diagnostic.range),
      );
      if (!finding) continue;
      for (const fix of engineeringFixes(finding, check.findings, check.spots, lines, eol)) {
        const same = actions.get(fix.title);
        if (same) {
          same.diagnostics?.push(diagnostic);
          continue;
        }
        const action = new vscode.CodeAction(fix.title, vscode.CodeActionKind.QuickFix);
        action.edit = new vscode.WorkspaceEdit();
        for (const e of fix.edits) {
          action.edit.replace(document.uri, new vscode.Range(e.line, e.start, e.line, e.end), e.text);
        }
        action.diagnostics = [diagnostic];
        action.isPreferred = fix.preferred;
        actions.set(fix.title, action);
      }
    }
    return [...actions.values()];
  }
}
