// Third-party notices for what the bundles actually carry. esbuild's metafile lists every input
// file of a bundle; an input under node_modules names the package it came from. Each such package
// contributes its name, version, declared license and the full text of its license (and NOTICE)
// files. The build writes the result to dist/ThirdPartyNotices.txt, which the .vsix ships.
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

export const NOTICES_FILE = 'ThirdPartyNotices.txt';

/** The package a bundled input belongs to: the name after its last `node_modules/`. */
export function packageOfInput(inputPath) {
  const at = inputPath.lastIndexOf('node_modules/');
  if (at < 0 || (at > 0 && inputPath[at - 1] !== '/')) return undefined;
  const rest = inputPath.slice(at + 'node_modules/'.length);
  const match = /^(?:@[^/]+\/)?[^/]+/.exec(rest);
  if (!match) return undefined;
  return { name: match[0], dir: inputPath.slice(0, at + 'node_modules/'.length) + match[0] };
}

/** Every package (by its folder) whose files are inputs of any of the metafiles, sorted by name. */
export function bundledPackages(metafiles) {
  const byDir = new Map();
  for (const metafile of metafiles) {
    for (const input of Object.keys(metafile.inputs)) {
      const pkg = packageOfInput(input);
      if (pkg) byDir.set(pkg.dir, pkg);
    }
  }
  return [...byDir.values()].sort((a, b) => a.name.localeCompare(b.name) || a.dir.localeCompare(b.dir));
}

const LEGAL_FILE = /^(licen[cs]e|copying|notice)(\.(md|txt|markdown))?$/i;

/** The notices text for `packages` (folders relative to `root`); throws when one has no license text. */
export function noticesText(root, packages) {
  const sections = packages.map(({ name, dir }) => {
    const manifest = JSON.parse(readFileSync(join(root, dir, 'package.json'), 'utf8'));
    const files = readdirSync(join(root, dir))
      .filter((file) => LEGAL_FILE.test(file))
      .sort();
    // A few packages (pg-types, pgpass) carry their license text only as their README's section.
    const readmeLicense = files.length === 0 ? licenseSectionOfReadme(join(root, dir)) : null;
    if (files.length === 0 && readmeLicense === null)
      throw new Error(`${dir}: no LICENSE, COPYING or NOTICE file to ship in ${NOTICES_FILE}`);
    const license = typeof manifest.license === 'string' ? manifest.license : 'see below';
    const texts =
      readmeLicense !== null
        ? [readmeLicense]
        : files.map((file) => readFileSync(join(root, dir, file), 'utf8').trimEnd());
    return [`${name} ${manifest.version} (${license})`, '-'.repeat(60), ...texts].join('\n\n');
  });
  return [
    'Loop Ledger includes the following third-party software in its bundles (dist/).',
    'Each is listed with its version, its declared license and its license text.',
    '',
    ...sections.map((section) => `${'='.repeat(72)}\n${section}\n`),
  ].join('\n');
}

/** The text under a README's "License" heading (to the next heading), or null. */
function licenseSectionOfReadme(dir) {
  const readme = readdirSync(dir).find((file) => /^readme(\.md)?$/i.test(file));
  if (readme === undefined) return null;
  const lines = readFileSync(join(dir, readme), 'utf8').split('\n');
  const start = lines.findIndex((line) => /^#+\s*licen[cs]e\s*$/i.test(line));
  if (start < 0) return null;
  const rest = lines.slice(start + 1);
  const end = rest.findIndex((line) => /^#+\s/.test(line));
  const text = (end < 0 ? rest : rest.slice(0, end)).join('\n').trim();
  return /permission|licen[cs]e/i.test(text) ? text : null;
}

/** Writes dist/ThirdPartyNotices.txt for the bundles whose metafiles are given. */
export function writeNotices(root, metafiles) {
  const packages = bundledPackages(metafiles);
  const out = join(root, 'dist', NOTICES_FILE);
  writeFileSync(out, noticesText(root, packages));
  return { file: out, packages };
}

export const hasNotices = (root) => existsSync(join(root, 'dist', NOTICES_FILE));
