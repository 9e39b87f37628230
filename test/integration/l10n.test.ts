// In a real VS Code, the manifest the workbench shows is package.json with every %key% replaced
// from package.nls.json: no command, view or setting reads "%command.openLoop.title%".
import * as assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import * as vscode from 'vscode';

interface Manifest {
  contributes: {
    commands: { command: string; title: string; category: string }[];
    views: Record<string, { id: string; name: string }[]>;
    configuration: {
      title: string;
      properties: Record<string, { description?: string; markdownDescription?: string }>;
    };
  };
}

describe('translated contributions (package.nls.json)', () => {
  const extension = vscode.extensions.getExtension('loop-ledger.loop-ledger');
  assert.ok(extension, 'the extension is loaded');
  const nls = JSON.parse(readFileSync(join(extension.extensionPath, 'package.nls.json'), 'utf8')) as Record<
    string,
    string
  >;
  const raw = JSON.parse(readFileSync(join(extension.extensionPath, 'package.json'), 'utf8')) as Manifest;
  const shown = extension.packageJSON as Manifest;
  const resolved = (text: string) => text.replace(/^%([^%\s]+)%$/, (_, key: string) => nls[key] ?? text);

  it('shows every command title and category in words, as package.nls.json has them', () => {
    assert.ok(
      raw.contributes.commands.every((c) => /^%.+%$/.test(c.title)),
      'package.json itself holds keys',
    );
    for (const [i, command] of shown.contributes.commands.entries()) {
      assert.doesNotMatch(command.title, /%/, command.command);
      assert.equal(command.title, resolved(raw.contributes.commands[i]!.title), command.command);
      assert.equal(command.category, 'Loop Ledger', command.command);
    }
    const open = shown.contributes.commands.find((c) => c.command === 'loopLedger.openLoop');
    assert.equal(open?.title, 'Open Loop');
  });

  it('shows view names and setting descriptions in words', () => {
    const names = Object.values(shown.contributes.views)
      .flat()
      .map((v) => v.name);
    assert.deepEqual(names, ['Sessions', 'Work Orders']);
    assert.equal(shown.contributes.configuration.title, 'Loop Ledger');
    for (const [key, property] of Object.entries(shown.contributes.configuration.properties)) {
      const text = property.description ?? property.markdownDescription ?? '';
      assert.ok(text.length > 10 && !/^%.*%$/.test(text), `${key}: ${text}`);
    }
  });
});
