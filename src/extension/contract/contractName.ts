import * as l10n from '@vscode/l10n';
/** A contract's file name (without `.json`): the same shape as a session id, so it can name one. */
export const CONTRACT_NAME = /^[A-Za-z0-9][A-Za-z0-9._-]{0,127}$/;

/**
 * Why `name` cannot be used, or undefined when it can. `taken` says whether a name is in use; it
 * looks at the disk, so it is asynchronous (the extension host never waits on a stat).
 */
export async function contractNameProblem(
  name: string,
  taken: (name: string) => Promise<boolean>,
): Promise<string | undefined> {
  if (!CONTRACT_NAME.test(name)) {
    return l10n.t('Use letters, digits, ".", "_" or "-", starting with a letter or digit (at most 128).');
  }
  if (await taken(name))
    return l10n.t('.loop/contracts/{0} already exists (as this kind); choose another name.', name);
  return undefined;
}
