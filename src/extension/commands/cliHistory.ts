import { quote } from 'shlex';

/** A `loop-ledger` command line: program, subcommand, then flags in the order given. */
export function cliLine(
  subcommand: string,
  flags: readonly (readonly [
    flag: string,
    value: string | number | boolean | null | undefined | readonly string[],
  ])[],
): string {
  return withFlags(`loop-ledger ${subcommand}`, flags);
}

/** `line` with more flags after it (a ledger store's `--store` and `--project`). */
export function withFlags(
  line: string,
  flags: readonly (readonly [
    flag: string,
    value: string | number | boolean | null | undefined | readonly string[],
  ])[],
): string {
  const parts = [line];
  for (const [flag, value] of flags) {
    if (value === undefined || value === null || value === false || value === '') continue;
    if (value === true) parts.push(`--${flag}`);
    else if (Array.isArray(value)) for (const item of value) parts.push(`--${flag}`, quote(item));
    else parts.push(`--${flag}`, quote(String(value)));
  }
  return parts.join(' ');
}

/**
 * The CLI equivalent of the last action each session saw from VS Code, so "Copy CLI Command"
 * can hand an agent exactly what was just done from the palette.
 */
export class CliHistory {
  private readonly last = new Map<string, { title: string; line: string }>();

  remember(root: string, session: string, title: string, line: string): void {
    this.last.set(`${root}\0${session}`, { title, line });
  }

  lastFor(root: string, session: string): { title: string; line: string } | undefined {
    return this.last.get(`${root}\0${session}`);
  }
}
