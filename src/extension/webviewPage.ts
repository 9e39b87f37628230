// The one page shell every webview of the extension is written in (the critic brief, the
// overview and dashboard, the run receipt): a strict Content-Security-Policy that allows nothing
// by default, then only what the page names — stylesheets, fonts and images from the extension's
// own files, an inline style or a script only with this page's nonce, nothing remote. Each page
// writes only its head additions and its body. No vscode import: the receipt page is unit-tested
// in plain Node.
import { randomBytes } from 'node:crypto';

/** A fresh nonce for one page: a script or an inline style without it does not run. */
export function pageNonce(): string {
  return randomBytes(18).toString('base64url');
}

/** Text made safe for an element or a double-quoted attribute: never markup. */
export function escapeHtml(text: string): string {
  return text.replace(
    /[&<>"']/g,
    (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] as string,
  );
}

export interface WebviewPage {
  /** The webview's own source (`webview.cspSource`): the extension's files it may load. */
  readonly cspSource: string;
  /** VS Code's display language (screen readers pick their voice by it). */
  readonly language: string;
  /** Plain text; escaped here. */
  readonly title: string;
  /** What the page loads beyond its own stylesheets. `nonce` is required by a script or an inline style. */
  readonly allow?: { fonts?: boolean; images?: boolean; script?: boolean; inlineStyle?: boolean };
  readonly nonce?: string;
  /** A page that runs no script (a restored panel that cannot be shown again) is not sized for mobile. */
  readonly viewport?: boolean;
  /** Markup for the head after the title (stylesheet links, an inline style with the nonce). */
  readonly head?: string;
  /** Attributes of `<body>` as markup (values already escaped), e.g. `data-page="overview"`. */
  readonly bodyAttributes?: string;
  readonly body: string;
}

/** The Content-Security-Policy a page's `allow` stands for. */
export function pagePolicy(page: Pick<WebviewPage, 'cspSource' | 'allow' | 'nonce'>): string {
  const allow = page.allow ?? {};
  const nonce = (): string => {
    if (!page.nonce) throw new Error('a webview page with a script or an inline style needs a nonce');
    return `'nonce-${page.nonce}'`;
  };
  const policy = [
    "default-src 'none'",
    `style-src ${page.cspSource}${allow.inlineStyle ? ` ${nonce()}` : ''}`,
  ];
  if (allow.fonts) policy.push(`font-src ${page.cspSource}`);
  if (allow.images) policy.push(`img-src ${page.cspSource}`);
  if (allow.script) policy.push(`script-src ${nonce()}`);
  return policy.join('; ');
}

export function webviewPage(page: WebviewPage): string {
  const viewport =
    page.viewport === false ? '' : '\n<meta name="viewport" content="width=device-width, initial-scale=1.0">';
  const attributes = page.bodyAttributes ? ` ${page.bodyAttributes}` : '';
  return `<!DOCTYPE html>
<html lang="${escapeHtml(page.language)}">
<head>
<meta charset="UTF-8">
<meta http-equiv="Content-Security-Policy" content="${pagePolicy(page)}">${viewport}
<title>${escapeHtml(page.title)}</title>${page.head ? `\n${page.head}` : ''}
</head>
<body${attributes}>
${page.body}
</body>
</html>`;
}
