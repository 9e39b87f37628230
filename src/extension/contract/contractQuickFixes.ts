import * as vscode from 'vscode';
import { DiagnosticQuickFixes, type Fixer } from '../diagnostics/diagnosticQuickFixes';
import type { ContractCheck } from './contractDiagnostics';
import { fixesFor } from './contractFixes';
import { minimalReplacement } from './jsonTextEdits';

/**
 * Quick fixes on Loop Ledger's contract diagnostics. A diagnostic is matched back to the finding
 * it came from by code and range, so each fix knows the finding's JSON path.
 */
export class ContractQuickFixes extends DiagnosticQuickFixes<ContractCheck> {
  protected fixer(document: vscode.TextDocument, check: ContractCheck): Fixer | undefined {
    if (!check.parsed) return undefined;
    const text = document.getText();
    const format = formattingOptions(document);
    return (diagnostic) => {
      const finding = check.findings.find(
        (f) => f.code === diagnostic.code && f.range.isEqual(diagnostic.range),
      );
      if (!finding) return [];
      return fixesFor(text, finding, check.findings, format).map((fix) => ({
        // Keyed by title and result: several findings on one spot (two missing fields are both
        // marked on the object's brace) share one fix instead of listing it twice.
        key: `${fix.title}\n${fix.newText}`,
        title: fix.title,
        preferred: fix.preferred,
        edit: () => {
          const change = minimalReplacement(text, fix.newText);
          const edit = new vscode.WorkspaceEdit();
          edit.replace(
            document.uri,
            new vscode.Range(
              document.positionAt(change.offset),
              document.positionAt(change.offset + change.length),
            ),
            change.text,
          );
          return edit;
        },
      }));
    };
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
