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
);
