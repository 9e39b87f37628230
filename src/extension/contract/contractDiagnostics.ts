import { parseTree } from 'jsonc-parser';
import * as vscode from 'vscode';
import { validateContractText, type ValidatePayload } from '../../app/contract-operations';
import { contractLabel, contractRoot, isContractDocument } from './contractDocuments';
import { findingSpan } from './findingSpan';

export const DIAGNOSTIC_SOURCE = 'Loop Ledger';

/** One engine finding, where it sits in the document it was found in. */
export interface PlacedFinding {
  readonly code: string;
  readonly message: string;
  readonly path: readonly (string | number)[];
  readonly range: vscode.Range;
}

/** What the last validation of one document version found; `parsed` is false for text that is not JSON. */
export interface ContractCheck {
  readonly version: number;
  readonly parsed: boolean;
  readonly payload?: ValidatePayload;
  readonly findings: readonly PlacedFinding[];
}

/**
 * The engine's contract findings as diagnostics (the JSON schema gives structure; this gives
 * meaning). Validation runs on open, debounced while typing, and is cleared when the document
 * closes. It only reads: program resolution stats PATH and never runs anything, so it also runs
 * in an untrusted workspace.
 */
export class ContractDiagnostics implements vscode.Disposable {
  private readonly collection = vscode.languages.createDiagnosticCollection('loopLedger.contract');
  private readonly pending = new Map<string, ReturnType<typeof setTimeout>>();
  private readonly checks = new Map<string, ContractCheck>();
  private readonly subscriptions: vscode.Disposable[] = [];

  constructor(private readonly debounceMs = 300) {
    this.subscriptions.push(
      this.collection,
      vscode.workspace.onDidOpenTextDocument((document) => this.validateNow(document)),
      vscode.workspace.onDidChangeTextDocument((event) => this.schedule(event.document)),
      vscode.workspace.onDidCloseTextDocument((document) => this.forget(document.uri)),
    );
    for (const document of vscode.workspace.textDocuments) this.validateNow(document);
  }

  /** Validates at once (the Validate lens and command, and quick fixes that need fresh findings). */
  validateNow(document: vscode.TextDocument): ContractCheck | undefined {
    if (!isContractDocument(document)) return undefined;
    this.cancel(document.uri);
    const check = checkContract(document);
    this.checks.set(document.uri.toString(), check);
    this.collection.set(document.uri, check.findings.map(toDiagnostic));
    return check;
  }

  /** The findings of the document's current version, validating first when they are stale. */
  current(document: vscode.TextDocument): ContractCheck | undefined {
    const known = this.checks.get(document.uri.toString());
    return known?.version === document.version ? known : this.validateNow(document);
  }

  private schedule(document: vscode.TextDocument): void {
    if (!isContractDocument(document)) return;
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
    const key = uri.toString();
    clearTimeout(this.pending.get(key));
    this.pending.delete(key);
  }

  private forget(uri: vscode.Uri): void {
    this.cancel(uri);
    this.checks.delete(uri.toString());
    this.collection.delete(uri);
  }

  dispose(): void {
    for (const timer of this.pending.values()) clearTimeout(timer);
    this.pending.clear();
    for (const subscription of this.subscriptions) subscription.dispose();
  }
}

function checkContract(document: vscode.TextDocument): ContractCheck {
  const text = document.getText();
  const outcome = validateContractText(contractRoot(document.uri), text, contractLabel(document.uri));
  const payload = outcome.payload;
  // Text that is not JSON gets no semantic findings: the JSON language service already marks
  // the syntax error, and a path into unparsable text has no range.
  if (!payload) return { version: document.version, parsed: false, findings: [] };
  const tree = parseTree(text);
  const findings = payload.findings.map((finding) => {
    const code = finding.code ?? 'contract';
    const span = findingSpan(tree, finding.path, code);
    const range = new vscode.Range(
      document.positionAt(span.offset),
      document.positionAt(span.offset + span.length),
    );
    return { code, message: finding.message, path: finding.path, range };
  });
  return { version: document.version, parsed: true, payload, findings };
}

function toDiagnostic(finding: PlacedFinding): vscode.Diagnostic {
  const diagnostic = new vscode.Diagnostic(finding.range, finding.message, vscode.DiagnosticSeverity.Error);
  diagnostic.source = DIAGNOSTIC_SOURCE;
  diagnostic.code = finding.code;
  return diagnostic;
}
