// Output and argv conventions of the drop-in `wo` kernels: stdout is one compact JSON line (as
// `jq -c` prints it), stderr one status line. Flags keep a tokenizer of their own,
// parseKernelFlags, because the original `wo-*.sh` scripts read them with a shell `case` loop
// whose tolerance scripts rely on (an unknown `--flag` is skipped, a trailing flag without a value
// reads as empty, a value may start with `-`); the shared parser (cli/parse-flags.ts) would refuse
// all three.
import { isoUtcSeconds } from '../../../engine/utc-iso';
import { printFindings, printLine } from '../../output';

export function out(value: unknown): void {
  printLine(JSON.stringify(value));
}

export function outPretty(value: unknown): void {
  printLine(JSON.stringify(value, null, 2));
}

export function err(line: string): void {
  printFindings([line]);
}

/** UTC now as the kernels stamp it: `YYYY-MM-DDTHH:MM:SSZ` (the shell owns the clock). */
export function nowIso(): string {
  return isoUtcSeconds(Date.now());
}

export interface Parsed {
  positionals: string[];
  values: Map<string, string>;
  /** Repeatable value flags, in order. */
  lists: Map<string, string[]>;
  switches: Set<string>;
}

/**
 * Reads `--flag value` (or `--flag=value`) for `valueFlags` and `repeatFlags`, bare `--flag` for
 * `switchFlags`; any other word starting with `--` is skipped on its own, the rest are positionals.
 */
export function parseKernelFlags(
  argv: string[],
  valueFlags: string[],
  switchFlags: string[] = [],
  repeatFlags: string[] = [],
): Parsed {
  const parsed: Parsed = { positionals: [], values: new Map(), lists: new Map(), switches: new Set() };
  for (let i = 0; i < argv.length; i += 1) {
    const arg = argv[i] ?? '';
    const eq = arg.startsWith('--') ? arg.indexOf('=') : -1;
    const name = eq > 0 ? arg.slice(0, eq) : arg;
    if (valueFlags.includes(name) || repeatFlags.includes(name)) {
      let value: string;
      if (eq > 0) value = arg.slice(eq + 1);
      else {
        value = argv[i + 1] ?? '';
        i += 1;
      }
      if (repeatFlags.includes(name)) parsed.lists.set(name, [...(parsed.lists.get(name) ?? []), value]);
      else parsed.values.set(name, value);
    } else if (switchFlags.includes(name)) parsed.switches.add(name);
    else if (arg.startsWith('--')) continue;
    else parsed.positionals.push(arg);
  }
  return parsed;
}
