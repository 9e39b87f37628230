// Fails when package.json `contributes.commands` and the commands src/extension registers differ.
// A command is registered either directly (`registerCommand('id', …)`) or as a Command class
// for the CommandManager (`readonly id = 'id'`); both forms are recognised.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const sourceDir = join(root, 'src', 'extension');
const patterns = [/registerCommand\(\s*['"`]([^'"`]+)['"`]/g, /readonly\s+id\s*=\s*['"`]([^'"`]+)['"`]/g];

function sourceFiles(dir) {
  let entries;
  try {
    entries = readdirSync(dir);
  } catch {
    return [];
  }
  return entries.flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return sourceFiles(path);
    return name.endsWith('.ts') && !name.endsWith('.d.ts') ? [path] : [];
  });
}

const manifest = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
const declared = new Set((manifest.contributes?.commands ?? []).map((c) => c.command));

/** id → files that register it */
const registered = new Map();
for (const file of sourceFiles(sourceDir)) {
  const text = readFileSync(file, 'utf8');
  for (const pattern of patterns) {
    for (const match of text.matchAll(pattern)) {
      const files = registered.get(match[1]) ?? [];
      files.push(relative(root, file));
      registered.set(match[1], files);
    }
  }
}

const problems = [];
for (const id of declared) {
  if (!registered.has(id))
    problems.push(`${id}: declared in package.json contributes.commands, never registered`);
}
for (const [id, files] of registered) {
  if (!declared.has(id))
    problems.push(`${id}: registered in ${files.join(', ')}, not declared in package.json`);
  if (files.length > 1) problems.push(`${id}: registered more than once (${files.join(', ')})`);
}

for (const problem of problems) console.error(problem);
console.log(
  `check-commands: ${declared.size} declared, ${registered.size} registered, ${problems.length} problem(s)`,
);
process.exit(problems.length === 0 ? 0 : 1);
