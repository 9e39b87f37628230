import * as path from 'node:path';
import * as vscode from 'vscode';

/**
 * Which files are loop contracts: any JSON file directly in a `.loop/contracts/` folder, and any
 * `*.loop-contract.json`. The same two patterns as `contributes.jsonValidation` in package.json.
 */
export const CONTRACT_SELECTOR: vscode.DocumentSelector = [
  { scheme: 'file', pattern: '**/.loop/contracts/*.json' },
  { scheme: 'file', pattern: '**/*.loop-contract.json' },
];

const IN_CONTRACTS_FOLDER = /[/\\]\.loop[/\\]contracts[/\\][^/\\]+\.json$/;

export function isContractDocument(document: vscode.TextDocument): boolean {
  // Only files: a compare view's "saved" side or a git version of the file is not the contract.
  return document.uri.scheme === 'file' && isContractPath(document.uri.path);
}

export function isContractPath(filePath: string): boolean {
  return filePath.endsWith('.loop-contract.json') || IN_CONTRACTS_FOLDER.test(filePath);
}

/**
 * The root an evidence command's program may be found under — the folder holding `.loop`, else
 * the document's workspace folder, else its own folder. `loop-ledger validate --root` takes the
 * same folder, so both answer alike.
 */
export function contractRoot(uri: vscode.Uri): string {
  const marker = uri.fsPath.search(/[/\\]\.loop[/\\]contracts[/\\]/);
  if (marker > 0) return uri.fsPath.slice(0, marker);
  return vscode.workspace.getWorkspaceFolder(uri)?.uri.fsPath ?? path.dirname(uri.fsPath);
}

/** How a contract is named in messages: its workspace-relative path. */
export function contractLabel(uri: vscode.Uri): string {
  return vscode.workspace.asRelativePath(uri, false);
}
