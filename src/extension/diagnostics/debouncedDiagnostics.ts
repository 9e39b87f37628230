import * as vscode from 'vscode';

/** The `source` of every Loop Ledger diagnostic; quick fixes act only on diagnostics with it. */
export const DIAGNOSTIC_SOURCE = 'Loop Ledger';

/** A check's result, tied to the document version it judged so a stale one is never reused. */
export interface VersionedCheck {
  readonly version: number;
}

/** What one kind of document contributes: which documents, how to check them, what to show. */
export interface DiagnosticsSpec<C extends VersionedCheck> {
  /** The DiagnosticCollection's name. */
  readonly collection: string;
  /** A settings section whose change re-checks every open document (it changes the result). */
  readonly configurationSection?: string;
  accepts(document: vscode.TextDocument): boolean;
  /** A check may be asynchronous (a worker thread): its result is applied only if still current. */
  check(document: vscode.TextDocument): C | Promise<C>;
  toDiagnostics(document: vscode.TextDocument, check: C): vscode.Diagnostic[];
}

/**
 * The plumbing both editors share: check on open, debounced while typing (checking every
 * keystroke would stall a large file), cleared when the document closes. The last check of each
 * document is kept so quick fixes read the findings the Problems panel shows.
 */
export class DebouncedDiagnostics<C extends VersionedCheck> implements vscode.Disposable {
  private readonly collection: vscode.DiagnosticCollection;
  private readonly pending = new Map<string, ReturnType<typeof setTimeout>>();
  private readonly checks = new Map<string, C>();
  /** The check running for each document, so a second request for the same version shares it. */
  private readonly running = new Map<string, { version: number; result: Promise<C> }>();
  private disposed = false;
  private readonly subscriptions: vscode.Disposable[] = [];

  constructor(
    private readonly spec: DiagnosticsSpec<C>,
    private readonly debounceMs: number,
  ) {
    this.collection = vscode.languages.createDiagnosticCollection(spec.collection);
    this.subscriptions.push(
      this.collection,
      vscode.workspace.onDidOpenTextDocument((document) => this.validateNow(document)),
      vscode.workspace.onDidChangeTextDocument((event) => this.schedule(event.document)),
      vscode.workspace.onDidCloseTextDocument((document) => this.forget(document.uri)),
    );
    const section = spec.configurationSection;
    if (section !== undefined) {
      this.subscriptions.push(
        vscode.workspace.onDidChangeConfiguration((event) => {
          if (!event.affectsConfiguration(section)) return;
          for (const document of vscode.workspace.textDocuments) this.validateNow(document);
        }),
      );
    }
    for (const document of vscode.workspace.textDocuments) this.validateNow(document);
  }

  /** Checks at once (lenses, commands, and quick fixes that need fresh findings). */
  validateNow(document: vscode.TextDocument): Promise<C | undefined> {
    if (!this.spec.accepts(document)) return Promise.resolve(undefined);
    this.cancel(document.uri);
    const key = document.uri.toString();
    const version = document.version;
    const already = this.running.get(key);
    if (already?.version === version) return already.result;
    const result = Promise.resolve(this.spec.check(document)).then((check) => {
      if (this.running.get(key)?.result === result) this.running.delete(key);
      // Typed over, closed or disposed while the check ran: a newer check (or none) applies.
      if (this.disposed || document.isClosed || document.version !== version) return check;
      this.checks.set(key, check);
      this.collection.set(document.uri, this.spec.toDiagnostics(document, check));
      return check;
    });
    this.running.set(key, { version, result });
    return result;
  }

  /** The check of the document's current version, checking first when the kept one is stale. */
  current(document: vscode.TextDocument): Promise<C | undefined> {
    const known = this.checks.get(document.uri.toString());
    return known?.version === document.version ? Promise.resolve(known) : this.validateNow(document);
  }

  private schedule(document: vscode.TextDocument): void {
    if (!this.spec.accepts(document)) return;
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
    this.running.delete(uri.toString());
    this.checks.delete(uri.toString());
    this.collection.delete(uri);
  }

  dispose(): void {
    this.disposed = true;
    for (const timer of this.pending.values()) clearTimeout(timer);
    this.pending.clear();
    for (const subscription of this.subscriptions) subscription.dispose();
  }
}
