import * as vscode from 'vscode';
import { checkEngineeringMarkdown, type EngineeringCheck } from '../../engine/engineering/check';
import type { EngineeringFinding } from '../../engine/engineering/validate';
import { isEngineeringDocument, strictByDefault } from './engineeringDocuments';

export const DIAGNOSTIC_SOURCE = 'Loop Ledger';

/** The last check of one document version (the quick fixes read its findings and spots). */
export interface EngineeringDocumentCheck extends EngineeringCheck {
  readonly version: number;
}

/**
 * The engine's loop-engineering findings on `.loop.md` files, on the exact field: rules the
 * original always applies are errors, `--strict`-only rules warnings (errors with the
 * `loopLedger.engineering.strict` setting). The same engine call as `loop-ledger validate
 * --strict`, so the two cannot disagree. It only reads, so it runs in untrusted workspaces too.
 */
export class EngineeringDiagnostics implements vscode.Disposable {
  private readonly collection = vscode.languages.createDiagnosticCollection('loopLedger.engineering');
  private readonly pending = new Map<string, ReturnType<typeof setTimeout>>();
  private readonly checks = new Map<string, EngineeringDocumentCheck>();
  private readonly subscriptions: vscode.Disposable[] = [];

  constructor(private readonly debounceMs = 300) {
    this.subscriptions.push(
      this.collection,
      vscode.workspace.onDidOpenTextDocument((d) => this.validateNow(d)),
      vscode.workspace.onDidChangeTextDocument((e) => this.schedule(e.document)),
      vscode.workspace.onDidCloseTextDocument((d) => this.forget(d.uri)),
      vscode.workspace.onDidChangeConfiguration((e) => {
        if (!e.affectsConfiguration('loopLedger.engineering')) return;
        for (const d of vscode.workspace.textDocuments) this.validateNow(d);
      }),
    );
    for (const d of vscode.workspace.textDocuments) this.validateNow(d);
  }

  validateNow(document: vscode.TextDocument): EngineeringDocumentCheck | undefined {
    if (!isEngineeringDocument(document)) return undefined;
    this.cancel(document.uri);
    const check = { ...checkDocument(document), version: document.version };
    this.checks.set(document.uri.toString(), check);
    const strictErrors = strictByDefault(document.uri);
    this.collection.set(
      document.uri,
      check.findings.map((f) => toDiagnostic(document, check, f, strictErrors)),
    );
    return check;
  }

  current(document: vscode.TextDocument): EngineeringDocumentCheck | undefined {
    const known = this.checks.get(document.uri.toString());
    return known?.version === document.version ? known : this.validateNow(document);
  }

  private schedule(document: vscode.TextDocument): void {
    if (!isEngineeringDocument(document)) return;
    this.cancel(document.uri);
    const key = document.uri.toString();
    this.pending.set(
      key,
      setTimeout(() => {
        this.pending.delete(key);
        if (!document.isClosed) this.validateNow(document);
      }, this.debounceMs),
    );
  }

  private cancel(uri: vscode.Uri): void {
    clearTimeout(this.pending.get(uri.toString()));
    this.pending.delete(uri.toString());
  }

  private forget(uri: vscode.Uri): void {
    this.cancel(uri);
    this.checks.delete(uri.toString());
    this.collection.delete(uri);
  }

  dispose(): void {
    for (const timer of this.pending.values()) clearTimeout(timer);
    this.pending.clear();
    for (const s of this.subscriptions) s.dispose();
  }
}

/**
 * VS Code hides a file's byte-order mark from the text (it is the `utf8bom` encoding); the CLI
 * sees it, as the original did. Put it back so both judge the same text, then shift line 0's
 * columns back to the editor's.
 */
function checkDocument(document: vscode.TextDocument): EngineeringCheck {
  const bom = document.encoding === 'utf8bom';
  const check = checkEngineeringMarkdown(`${bom ? '\ufeff' : ''}${document.getText()}`, true);
  if (!bom) return check;
  for (const spot of check.spots.values()) {
    if (spot.line !== 0) continue;
    spot.nameStart = Math.max(0, spot.nameStart - 1);
    spot.nameEnd = Math.max(0, spot.nameEnd - 1);
    spot.valueStart = Math.max(0, spot.valueStart - 1);
    spot.valueEnd = Math.max(0, spot.valueEnd - 1);
  }
  return check;
}

/** Where a finding sits: its field (name through value) when written, else the first line. */
export function findingRange(
  document: vscode.TextDocument,
  check: EngineeringCheck,
  finding: EngineeringFinding,
): vscode.Range {
  const field = [...check.spots.keys()].find((k) => k.replace(/[ -]/g, '_') === finding.field);
  const spot = field === undefined ? undefined : check.spots.get(field);
  if (spot)
    return new vscode.Range(spot.line, spot.nameStart, spot.line, Math.max(spot.valueEnd, spot.nameEnd));
  if (finding.line !== null) return document.lineAt(finding.line - 1).range;
  return document.lineCount > 0 ? document.lineAt(0).range : new vscode.Range(0, 0, 0, 0);
}

function toDiagnostic(
  document: vscode.TextDocument,
  check: EngineeringCheck,
  finding: EngineeringFinding,
  strictErrors: boolean,
): vscode.Diagnostic {
  const severity =
    finding.strict && !strictErrors ? vscode.DiagnosticSeverity.Warning : vscode.DiagnosticSeverity.Error;
  const message = finding.hint ? `${finding.message} (${finding.hint})` : finding.message;
  const diagnostic = new vscode.Diagnostic(findingRange(document, check, finding), message, severity);
  diagnostic.source = DIAGNOSTIC_SOURCE;
  diagnostic.code = finding.code;
  return diagnostic;
}
