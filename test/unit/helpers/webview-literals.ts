// Finds text in the critic-brief webview's source that a person would read but that does not go
// through `w(...)` (webview/words.ts), so it would stay English whatever the host's table says.
// Two nets: (1) anything with letters in a place the page renders — an element's children, a
// title/aria-label/placeholder, a section or field label, textContent; (2) any other string that
// reads like prose (a capitalised word, or two words) outside the places that are not text (class
// names, ids, tags, imports, `w`'s own key).
import * as ts from 'typescript';

export interface Untranslated {
  file: string;
  line: number;
  text: string;
}

/** Attribute names whose value a person reads (or a screen reader says). */
const READ_ATTRIBUTES = new Set(['title', 'aria-label', 'placeholder', 'alt', 'label']);
/** Calls that render some of their arguments as text: callee → argument positions. */
const RENDERING_CALLS: Record<string, (index: number) => boolean> = {
  h: (i) => i >= 2,
  section: (i) => i === 1,
  group: (i) => i === 0 || i === 3,
  textarea: (i) => i === 2,
  showMessage: (i) => i === 0,
};
const TEXT_PROPERTIES = new Set(['textContent', 'innerText', 'title', 'placeholder']);
/** Object keys whose string value is markup plumbing, never read. */
const PLUMBING_KEYS =
  /^(class|id|for|name|type|variant|role|href|scope|tabindex|block|outputFormat|matching|data-.*|aria-(controls|expanded|pressed|live|hidden|labelledby))$/;

function hasLetters(node: ts.Node): boolean {
  if (ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node)) return /[A-Za-z]/.test(node.text);
  if (ts.isTemplateExpression(node))
    return [node.head.text, ...node.templateSpans.map((s) => s.literal.text)].some((t) => /[A-Za-z]/.test(t));
  return false;
}

/** A literal's text, a template's with its holes left empty; '' for anything else. */
function literalText(node: ts.Node): string {
  if (ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node)) return node.text;
  if (ts.isTemplateExpression(node))
    return [node.head.text, ...node.templateSpans.map((s) => s.literal.text)].join('');
  return '';
}

function readsLikeProse(text: string): boolean {
  return /^[A-Z][a-z]/.test(text) || /[A-Za-z]{2,}[ ,:]+[A-Za-z]{2,}/.test(text);
}

function calleeName(call: ts.CallExpression): string | undefined {
  const callee = call.expression;
  if (ts.isIdentifier(callee)) return callee.text;
  if (ts.isPropertyAccessExpression(callee)) return callee.name.text;
  return undefined;
}

function propertyName(node: ts.PropertyAssignment): string | undefined {
  const name = node.name;
  return ts.isIdentifier(name) || ts.isStringLiteral(name) ? name.text : undefined;
}

export function untranslatedLiterals(file: string, source: string): Untranslated[] {
  const sf = ts.createSourceFile(file, source, ts.ScriptTarget.Latest, true);
  const found: Untranslated[] = [];
  const flagged = new Set<ts.Node>();
  const flag = (node: ts.Node) => {
    if (flagged.has(node)) return;
    flagged.add(node);
    const line = sf.getLineAndCharacterOfPosition(node.getStart(sf)).line + 1;
    found.push({ file, line, text: node.getText(sf) });
  };
  /** A rendered expression: its literal parts must not carry words. */
  const rendered = (node: ts.Node): void => {
    if (hasLetters(node)) return flag(node);
    if (ts.isParenthesizedExpression(node)) return rendered(node.expression);
    if (ts.isConditionalExpression(node)) return (rendered(node.whenTrue), rendered(node.whenFalse));
    if (ts.isBinaryExpression(node) && node.operatorToken.kind === ts.SyntaxKind.PlusToken)
      return (rendered(node.left), rendered(node.right));
    if (ts.isArrayLiteralExpression(node)) node.elements.forEach(rendered);
    if (ts.isTemplateExpression(node)) node.templateSpans.forEach((span) => rendered(span.expression));
  };
  /** Whether a literal sits where it is not text: a key of `w`, an import, a plumbing value. */
  const exempt = (node: ts.Node): boolean => {
    for (let at: ts.Node = node; at.parent; at = at.parent) {
      const parent = at.parent;
      if (ts.isImportDeclaration(parent) || ts.isExportDeclaration(parent)) return true;
      if (ts.isCallExpression(parent) && at !== parent.expression) {
        const name = calleeName(parent);
        if (name === 'w') return true;
        if (name === 'h' && parent.arguments[0] === at) return true; // the tag
        if (name && !['h', 'section', 'group', 'textarea', 'showMessage'].includes(name)) return true;
      }
      if (ts.isPropertyAssignment(parent) && parent.initializer === at)
        return PLUMBING_KEYS.test(propertyName(parent) ?? '');
      if (ts.isElementAccessExpression(parent) || ts.isCaseClause(parent)) return true;
      if (ts.isBinaryExpression(parent) && /^[!=]==?$/.test(parent.operatorToken.getText(sf))) return true; // compared with, not shown
      if (ts.isStatement(parent)) return false;
    }
    return false;
  };
  const visit = (node: ts.Node): void => {
    if (ts.isCallExpression(node)) {
      const name = calleeName(node);
      const renders = name ? RENDERING_CALLS[name] : undefined;
      if (renders) node.arguments.forEach((arg, i) => renders(i) && rendered(arg));
      if (name === 'h' && node.arguments[1] && ts.isObjectLiteralExpression(node.arguments[1]))
        for (const p of node.arguments[1].properties)
          if (ts.isPropertyAssignment(p) && READ_ATTRIBUTES.has(propertyName(p) ?? ''))
            rendered(p.initializer);
      if (name === 'setAttribute' && node.arguments[0] && ts.isStringLiteral(node.arguments[0]))
        if (READ_ATTRIBUTES.has(node.arguments[0].text) && node.arguments[1]) rendered(node.arguments[1]);
    }
    if (
      ts.isBinaryExpression(node) &&
      node.operatorToken.kind === ts.SyntaxKind.EqualsToken &&
      ts.isPropertyAccessExpression(node.left) &&
      TEXT_PROPERTIES.has(node.left.name.text)
    )
      rendered(node.right);
    if (readsLikeProse(literalText(node)) && !exempt(node)) flag(node);
    ts.forEachChild(node, visit);
  };
  visit(sf);
  return found;
}
