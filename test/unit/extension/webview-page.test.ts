// The shared webview page shell: each page's policy allows only what the page names, a script or
// an inline style never loads without the page's nonce, and values are text, never markup.
import * as assert from 'node:assert/strict';
import { pageNonce, pagePolicy, webviewPage } from '../../../src/extension/webviewPage';

const SOURCE = 'https://file+.vscode-resource.example';

describe('webview page shell', () => {
  it('allows nothing by default, then only what the page names', () => {
    assert.equal(pagePolicy({ cspSource: SOURCE }), `default-src 'none'; style-src ${SOURCE}`);
    assert.equal(
      pagePolicy({ cspSource: SOURCE, nonce: 'N', allow: { fonts: true, images: true, script: true } }),
      `default-src 'none'; style-src ${SOURCE}; font-src ${SOURCE}; img-src ${SOURCE}; script-src 'nonce-N'`,
    );
    assert.equal(
      pagePolicy({ cspSource: SOURCE, nonce: 'N', allow: { inlineStyle: true, script: true } }),
      `default-src 'none'; style-src ${SOURCE} 'nonce-N'; script-src 'nonce-N'`,
    );
  });

  it('refuses a script or an inline style without a nonce', () => {
    assert.throws(() => pagePolicy({ cspSource: SOURCE, allow: { script: true } }), /needs a nonce/);
    assert.throws(() => pagePolicy({ cspSource: SOURCE, allow: { inlineStyle: true } }), /needs a nonce/);
  });

  it('gives every page a fresh nonce', () => {
    const nonces = new Set(Array.from({ length: 50 }, pageNonce));
    assert.equal(nonces.size, 50);
    for (const nonce of nonces) assert.match(nonce, /^[A-Za-z0-9_-]{24}$/);
  });

  it('escapes the title and the language; the body is the page’s own markup', () => {
    const html = webviewPage({
      cspSource: SOURCE,
      language: 'en"><script>',
      title: '<b>x</b> & "y"',
      bodyAttributes: 'data-page="overview"',
      body: '<main id="app"></main>',
    });
    assert.ok(html.startsWith('<!DOCTYPE html>'));
    assert.ok(html.includes('<html lang="en&quot;&gt;&lt;script&gt;">'));
    assert.ok(html.includes('<title>&lt;b&gt;x&lt;/b&gt; &amp; &quot;y&quot;</title>'));
    assert.ok(html.includes(`content="default-src 'none'; style-src ${SOURCE}"`));
    assert.ok(html.includes('<body data-page="overview">\n<main id="app"></main>\n</body>'));
    assert.ok(!html.includes('<script'));
    assert.ok(html.includes('name="viewport"'));
    assert.ok(
      !webviewPage({ cspSource: SOURCE, language: 'en', title: 't', viewport: false, body: '' }).includes(
        'viewport',
      ),
    );
  });
});
