// Shared by the contract-editor suites: the fixture contracts copied into the test workspace,
// and waiting for Loop Ledger's own diagnostics (they arrive after a debounce).
import * as assert from 'node:assert/strict';
import { cpSync, mkdirSync, readFileSync, readdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import * as vscode from 'vscode';

export const repoRoot = resolve(__dirname, '..', '..', '..');
const fixtureDir = join(repoRoot, 'test', 'fixtures', 'contracts');
export const DIAGNOSTIC_SOURCE = 'Loop Ledger';

export interface ExpectedFinding {
  code: string;
  /** The exact document text the diagnostic covers. */
  text: string;
}

export function workspaceRoot(): string {
  const folder = vscode.workspace.workspaceFolders?.[0];
  assert.ok(folder, 'the integration tier runs with a workspace folder');
  return folder.uri.fsPath;
}

export async function activateExtension(): Promise<void> {
  const ext = vscode.extensions.getExtension('loop-ledger.loop-ledger');
  assert.ok(ext, 'Loop Ledger is not loaded');
  await ext.activate();
}

/** Copies the fixture contracts into `<workspace>/<folder>/` and returns their names (without suffix). */
export function copyFixtures(folder: string): { dir: string; names: string[] } {
  const dir = join(workspaceRoot(), folder);
  mkdirSync(dir, { recursive: true });
  const names: string[] = [];
  for (const file of readdirSync(fixtureDir).sort()) {
    if (!file.endsWith('.loop-contract.json')) continue;
    cpSync(join(fixtureDir, file), join(dir, file));
    names.push(file.slice(0, -'.loop-contract.json'.length));
  }
  return { dir, names };
}

export function expectedFindings(): Record<string, ExpectedFinding[]> {
  return JSON.parse(readFileSync(join(fixtureDir, 'expected.json'), 'utf8')).findings;
}

export function contractDiagnostics(uri: vscode.Uri): vscode.Diagnostic[] {
  return vscode.languages.getDiagnostics(uri).filter((d) => d.source === DIAGNOSTIC_SOURCE);
}

/** Polls until `accept` holds for the document's Loop Ledger diagnostics; fails with the last ones seen. */
export async function waitForDiagnostics(
  uri: vscode.Uri,
  accept: (diagnostics: vscode.Diagnostic[]) => boolean,
  timeoutMs = 10_000,
): Promise<vscode.Diagnostic[]> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const diagnostics = contractDiagnostics(uri);
    if (accept(diagnostics)) return diagnostics;
    if (Date.now() > deadline) {
      const seen = diagnostics.map((d) => `${String(d.code)} ${d.message}`).join('\n  ');
      assert.fail(`diagnostics of ${uri.fsPath} never settled as expected; last seen:\n  ${seen}`);
    }
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** Each diagnostic as its code and the text it covers, in order. */
export function describeDiagnostics(
  document: vscode.TextDocument,
  diagnostics: vscode.Diagnostic[],
): ExpectedFinding[] {
  return diagnostics.map((d) => ({ code: String(d.code), text: document.getText(d.range) }));
}

export const sameCodes = (codes: string[]) => (diagnostics: vscode.Diagnostic[]) =>
  JSON.stringify(diagnostics.map((d) => String(d.code))) === JSON.stringify(codes);
