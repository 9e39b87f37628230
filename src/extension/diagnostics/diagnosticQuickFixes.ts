import * as vscode from 'vscode';
import { DIAGNOSTIC_SOURCE, type VersionedCheck } from './debouncedDiagnostics';

/** One fix offered for one diagnostic. */
export interface OfferedFix {
  /** Fixes with the same key are one action: several findings on one spot share it. */
  readonly key: string;
  readonly title: string;
  readonly preferred: boolean;
  /** Built only for the first diagnostic offering this key (an edit can be costly to compute). */
  edit(): vscode.WorkspaceEdit;
}

/** The fixes for one Loop Ledger diagnostic, given the document's current check. */
export type Fixer = (diagnostic: vscode.Diagnostic) => Iterable<OfferedFix>;

/**
 * Quick fixes on Loop Ledger diagnostics. The check behind the diagnostics is read fresh (or
 * re-run when stale) so each diagnostic is matched back to the finding it came from; a subclass
 * says how, and which fixes that finding has.
 */
export abstract class DiagnosticQuickFixes<C extends VersionedCheck> implements vscode.CodeActionProvider {
  static readonly providedCodeActionKinds = [vscode.CodeActionKind.QuickFix];

  constructor(
    private readonly diagnostics: { current(document: vscode.TextDocument): Promise<C | undefined> },
  ) {}

  /** The per-document fixer (it may prepare once what every diagnostic needs), or none. */
  protected abstract fixer(document: vscode.TextDocument, check: C): Fixer | undefined;

  async provideCodeActions(
    document: vscode.TextDocument,
    _range: vscode.Range,
    context: vscode.CodeActionContext,
  ): Promise<vscode.CodeAction[]> {
    const check = await this.diagnostics.current(document);
    // The document moved on while the check ran: its diagnostics are about to be replaced.
    if (!check || check.version !== document.version) return [];
    const fixesOf = this.fixer(document, check);
    if (!fixesOf) return [];
    const actions = new Map<string, vscode.CodeAction>();
    for (const diagnostic of context.diagnostics) {
      if (diagnostic.source !== DIAGNOSTIC_SOURCE) continue;
      for (const fix of fixesOf(diagnostic)) {
        const same = actions.get(fix.key);
        if (same) {
          same.diagnostics?.push(diagnostic);
          continue;
        }
        const action = new vscode.CodeAction(fix.title, vscode.CodeActionKind.QuickFix);
        action.edit = fix.edit();
        action.diagnostics = [diagnostic];
        action.isPreferred = fix.preferred;
        actions.set(fix.key, action);
      }
    }
    return [...actions.values()];
  }
}
