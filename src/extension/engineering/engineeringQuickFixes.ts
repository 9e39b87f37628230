import * as vscode from 'vscode';
import { DiagnosticQuickFixes, type Fixer } from '../diagnostics/diagnosticQuickFixes';
import { findingRange, type EngineeringDocumentCheck } from './engineeringDiagnostics';
import { engineeringFixes } from './engineeringFixes';

/** Quick fixes on `.loop.md` diagnostics, matched back to their finding by code and range. */
export class EngineeringQuickFixes extends DiagnosticQuickFixes<EngineeringDocumentCheck> {
  protected fixer(document: vscode.TextDocument, check: EngineeringDocumentCheck): Fixer {
    const lines = Array.from({ length: document.lineCount }, (_, i) => document.lineAt(i).text);
    const eol = document.eol === vscode.EndOfLine.CRLF ? '\r\n' : '\n';
    return (diagnostic) => {
      const finding = check.findings.find(
        (f) => f.code === diagnostic.code && findingRange(document, check, f).isEqual(diagnostic.range),
      );
      if (!finding) return [];
      return engineeringFixes(finding, check.findings, check.spots, lines, eol).map((fix) => ({
        key: fix.title,
        title: fix.title,
        preferred: fix.preferred,
        edit: () => {
          const edit = new vscode.WorkspaceEdit();
          for (const e of fix.edits) {
            edit.replace(document.uri, new vscode.Range(e.line, e.start, e.line, e.end), e.text);
          }
          return edit;
        },
      }));
    };
  }
}
