import * as vscode from 'vscode';
import { isEngineeringMarkdownName } from '../../engine/engineering/check';
import { isContractDocument } from '../contract/contractDocuments';

/** Loop-engineering contracts in the line grammar: any `*.loop.md` file. */
export const ENGINEERING_SELECTOR: vscode.DocumentSelector = [{ scheme: 'file', pattern: '**/*.loop.md' }];

export function isEngineeringDocument(document: vscode.TextDocument): boolean {
  return document.uri.scheme === 'file' && isEngineeringMarkdownName(document.uri.path);
}

/**
 * Files that may hold the JSON form: the work-loop contract files (`.loop/contracts/*.json`,
 * `*.loop-contract.json`), where the `kind` key decides, and `*.loop-engineering.json`.
 */
export function mayHoldEngineeringJson(document: vscode.TextDocument): boolean {
  return (
    isContractDocument(document) ||
    (document.uri.scheme === 'file' && document.uri.path.endsWith('.loop-engineering.json'))
  );
}

/** The setting that shows strict-only findings as errors instead of warnings. */
export function strictByDefault(scope?: vscode.Uri): boolean {
  return vscode.workspace.getConfiguration('loopLedger.engineering', scope).get<boolean>('strict', false);
}
