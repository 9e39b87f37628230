// What `import * as l10n from '@vscode/l10n'` resolves to in every bundle (scripts/build.mjs
// aliases it here). The modules unit tests load without VS Code write `l10n.t('… {0} …', arg)`,
// which `npm run l10n:export` collects into l10n/bundle.l10n.json like vscode.l10n.t; at run time
// this looks the message up in the bundle VS Code loaded for the display language (handed over in
// sharedL10n.ts) and fills the placeholders. The package itself only lends its types: it ships
// no license file to put in the notices, and two functions are all the extension needs of it.

type Message = string | { message: string };
let bundle: Readonly<Record<string, Message>> = {};

/** Uses `contents` (the parsed bundle, or its JSON text) for every later `t`. */
export function config(options: { contents: string | Readonly<Record<string, Message>> }): void {
  bundle = typeof options.contents === 'string' ? JSON.parse(options.contents) : options.contents;
}

/** `message` in the display language (English when no bundle has it), `{0}`… replaced by `args`. */
export function t(message: string, ...args: Array<string | number | boolean>): string {
  const entry = Object.hasOwn(bundle, message) ? bundle[message] : undefined;
  const text = typeof entry === 'string' ? entry : (entry?.message ?? message);
  return text.replace(/\{(\d+)\}/g, (whole, index: string) => {
    const arg = args[Number(index)];
    return arg === undefined ? whole : String(arg);
  });
}
