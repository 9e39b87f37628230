import * as vscode from 'vscode';
import { isEngineeringMarkdownName } from '../../engine/engineering/check';

/** Loop-engineering contracts in the line grammar: any `*.loop.md` file. */
export const ENGINEERING_SELECTOR: vscode.DocumentSelector = [{ scheme: 'file', pattern: '**/*.loop.md' }];

export function isEngineeringDocument(document: vscode.TextDocument): boolean {
  return document.uri.scheme === 'file' && isEngineeringMarkdownName(document.uri.path);
}

/** The setting that shows strict-only findings as errors instead of warnings. */
export function strictByDefault(scope?: vscode.Uri): boolean {
  return vscode.workspace.getConfiguration('loopLedger.engineering', scope).get<boolean>('strict', false);
}
