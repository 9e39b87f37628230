// Renders the overview page outside VS Code with a stub API and a theme's chart colours, to look at it.
import { chromium } from 'playwright-core';
import { chromiumLaunchOptions } from '../scripts/chromium.mjs';
import { readFileSync, writeFileSync } from 'node:fs';
import { build } from 'esbuild';
await build({ stdin: { contents: `export { buildOverview } from './src/engine/overview/model'; export { syntheticLedger } from './test/unit/overview/synthetic-ledger'; export { overviewWordTable } from './src/extension/overview/overviewWords';`, resolveDir: process.cwd(), loader: 'ts' }, bundle: true, platform: 'node', format: 'cjs', outfile: '.scratch/b.cjs', logLevel: 'error', alias: { '@vscode/l10n': './src/extension/l10nText.ts' } });
const m = (await import('./b.cjs')).default;
const [count, theme, out, width] = [Number(process.argv[2]), process.argv[3], process.argv[4], Number(process.argv[5] ?? 1300)];
const model = m.buildOverview(m.syntheticLedger(count, 'demo'), null, 400);
const hc = theme === 'hc';
const vars = hc
  ? '--vscode-charts-blue:#3794ff;--vscode-charts-green:#89d185;--vscode-charts-red:#f48771;--vscode-charts-yellow:#cca700;--vscode-charts-orange:#d18616;--vscode-charts-purple:#b180d7;--vscode-charts-foreground:#fff;--vscode-charts-lines:rgba(255,255,255,.5);--vscode-foreground:#fff;--vscode-descriptionForeground:#fff;--vscode-editor-background:#000;--vscode-contrastBorder:#6fc3df;--vscode-textLink-foreground:#21a6ff;--vscode-badge-background:#000;--vscode-badge-foreground:#fff;'
  : '--vscode-charts-blue:#1a85ff;--vscode-charts-green:#388a34;--vscode-charts-red:#e51400;--vscode-charts-yellow:#bf8803;--vscode-charts-orange:#d18616;--vscode-charts-purple:#652d90;--vscode-charts-foreground:#616161;--vscode-charts-lines:rgba(97,97,97,.5);--vscode-foreground:#3b3b3b;--vscode-descriptionForeground:#3b3b3b;--vscode-editor-background:#fff;--vscode-textLink-foreground:#005fb8;--vscode-badge-background:#cccccc;--vscode-badge-foreground:#3b3b3b;';
const html = `<!DOCTYPE html><html><head><style>${readFileSync('dist/webview/overview.css','utf8')}</style><style>html{${vars}} body{background:var(--vscode-editor-background);color:var(--vscode-foreground);font-family:sans-serif;font-size:13px}</style></head>
<body class="${hc ? 'vscode-high-contrast' : 'vscode-light'}" data-page="overview"><div id="app"></div>
<script>window.acquireVsCodeApi=()=>({postMessage(){},getState(){},setState(){}});</script>
<script type="module">${readFileSync('dist/webview/overview.js','utf8')}</script>
<script>setTimeout(()=>{window.postMessage({type:'words',words:${JSON.stringify(m.overviewWordTable())}},'*');window.postMessage({type:'overview',model:${JSON.stringify(model)},keep:{root:'/r',session:'demo'}},'*');},50);</script></body></html>`;
writeFileSync('.scratch/page.html', html);
const browser = await chromium.launch(chromiumLaunchOptions());
const page = await browser.newPage({ viewport: { width, height: 900 } });
await page.goto('file://' + process.cwd() + '/.scratch/page.html');
await page.waitForSelector('body[data-ready="true"]', { timeout: 60000 });
await page.screenshot({ path: out, fullPage: false });
await browser.close();
