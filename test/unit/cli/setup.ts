// Shared fixtures for the CLI conformance suites: a root with an opened session.
import { join } from 'node:path';
import { runCli, sampleContract, tempRoot, writeJson, type CliResult } from '../helpers/cli';

export interface Loop {
  root: string;
  session: string;
  contractPath: string;
  /** Runs `loop-ledger <sub> --root R --session S …`. */
  cli(sub: string, ...args: string[]): CliResult;
}

export function loopWith(contractOverrides: Record<string, unknown> = {}, openArgs: string[] = []): Loop {
  const root = tempRoot();
  const session = 'sess-1';
  const contractPath = writeJson(join(root, 'contract.json'), sampleContract(contractOverrides));
  const cli = (sub: string, ...args: string[]) =>
    runCli([sub, '--root', root, '--session', session, ...args]);
  const opened = cli('open', '--contract', contractPath, ...openArgs);
  if (opened.code !== 0) throw new Error(`open failed: ${opened.code} ${opened.stderr}`);
  return { root, session, contractPath, cli };
}

/** stderr lines (non-empty). */
export function lines(text: string): string[] {
  return text.split('\n').filter((l) => l !== '');
}

/** No stack trace, ever. */
export function assertNoStack(stderr: string): void {
  if (/^\s+at /m.test(stderr) || /\bError: /.test(stderr))
    throw new Error(`stack trace on stderr:\n${stderr}`);
}
