// Lint rules that hold the architecture: the engine is pure (no vscode, no processes),
// and only the extension host may talk to the vscode API.
import js from '@eslint/js';
import tseslint from 'typescript-eslint';

const noVscode = { name: 'vscode', message: 'Only src/extension/ may import the vscode API.' };
const noChildProcess = ['child_process', 'node:child_process'].map((name) => ({
  name,
  message: 'The engine never spawns a process: the caller runs commands and passes their output in.',
}));

const noIo = [
  'fs',
  'node:fs',
  'fs/promises',
  'node:fs/promises',
  'net',
  'node:net',
  'http',
  'node:http',
  'https',
  'node:https',
].map((name) => ({
  name,
  message: 'The engine does no I/O: src/store/ and the shells read and write files.',
}));

// Words a person reads in the extension go through vscode.l10n.t (or @vscode/l10n's l10n.t in the
// modules unit tests load without VS Code), so they reach l10n/bundle.l10n.json and can be
// translated: a string literal, template or concatenation handed straight to a message, a quick
// input, a progress title, a diagnostic, a code action or lens, or a tooltip is refused.
/** Text with words in it: a string literal with a letter, any template, a concatenation. */
const WORDS = ":matches(Literal[value=/[A-Za-z]/], TemplateLiteral, BinaryExpression[operator='+'])";
export const untranslatedText = [
  {
    selector: `CallExpression[callee.property.name=/^show(Information|Warning|Error)Message$/] > ${WORDS}`,
    message: 'A message shown to a person is written as vscode.l10n.t(...).',
  },
  {
    selector: `CallExpression[callee.property.name=/^(withProgress|showQuickPick|showInputBox|showOpenDialog|showSaveDialog|pickOne|pickMany|inputText|confirm)$/] > ObjectExpression > Property[key.name=/^(title|placeholder|placeHolder|prompt|confirmLabel|detail|openLabel|saveLabel)$/] > ${WORDS}`,
    message: 'A quick input, dialog or progress title is written as vscode.l10n.t(...).',
  },
  {
    selector: `AssignmentExpression[left.property.name=/^(title|placeholder|prompt|tooltip|validationMessage|name)$/] > ${WORDS}`,
    message: 'A title, placeholder or tooltip is written as vscode.l10n.t(...).',
  },
  {
    selector: `NewExpression[callee.property.name=/^(Diagnostic|CodeAction|MarkdownString)$/] > ${WORDS}`,
    message: 'A diagnostic, code action or hover text is written as vscode.l10n.t(...).',
  },
  {
    selector: `Property[key.name=/^(title|tooltip)$/] > ${WORDS}`,
    message: 'A title or tooltip is written as vscode.l10n.t(...).',
  },
  {
    // `npm run l10n:export` reads the message from the source: it must be one string literal.
    selector:
      "CallExpression[callee.property.name='t']:matches([callee.object.name='l10n'], [callee.object.property.name='l10n']) > :first-child:not(Literal)",
    message: 'The message of l10n.t is one string literal (with {0} placeholders), so it can be exported.',
  },
];

export default tseslint.config(
  { ignores: ['node_modules/', 'dist/', 'out/', '.vscode-test/', 'test/fixtures/', '.demo/', '.bench/'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: {
      globals: {
        process: 'readonly',
        console: 'readonly',
        Buffer: 'readonly',
        setTimeout: 'readonly',
        clearTimeout: 'readonly',
        URL: 'readonly',
        __dirname: 'readonly',
        require: 'readonly',
        module: 'writable',
      },
    },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
    },
  },
  {
    // CommonJS files (mocha loads reporters with require).
    files: ['**/*.cjs'],
    rules: { '@typescript-eslint/no-require-imports': 'off' },
  },
  {
    files: ['src/engine/**/*.ts'],
    rules: {
      'no-restricted-imports': ['error', { paths: [noVscode, ...noChildProcess, ...noIo] }],
    },
  },
  {
    files: ['src/store/**/*.ts', 'src/cli/**/*.ts', 'src/shared/**/*.ts', 'webview/**/*.ts'],
    rules: {
      'no-restricted-imports': ['error', { paths: [noVscode] }],
    },
  },
  {
    // The shells (the CLI, the extension, the MCP server) call src/app operations; only src/app
    // reaches the drivers, so each rule about processes, git and files lives in one place.
    files: ['src/cli/**/*.ts', 'src/extension/**/*.ts', 'src/mcp/**/*.ts'],
    rules: {
      '@typescript-eslint/no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: ['**/drivers/**'],
              message: 'A shell calls src/app, which calls the drivers.',
            },
          ],
        },
      ],
    },
  },
  {
    files: ['src/extension/**/*.ts'],
    ignores: ['src/extension/testing/**'],
    rules: { 'no-restricted-syntax': ['error', ...untranslatedText] },
  },
);
