import * as l10n from '@vscode/l10n';
import * as vscode from 'vscode';

/**
 * Modules the unit tests load without VS Code (labels, tooltips, status-bar words, the packet's
 * Markdown) write their words with @vscode/l10n's `l10n.t`, which returns the English text until it
 * is configured. This hands it the bundle VS Code loaded for the display language, so both
 * translate from the one l10n/bundle.l10n.<lang>.json that `npm run l10n:export` feeds.
 */
export function shareL10nBundle(): void {
  const bundle = vscode.l10n.bundle;
  if (bundle) l10n.config({ contents: bundle });
}
