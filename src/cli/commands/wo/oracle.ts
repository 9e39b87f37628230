// `loop-ledger wo oracle-check <wo-file> --diff-from <name-status-file> [--oracle-files <rules.json>]`:
// exit 0 with the verdict in JSON; 2 on bad arguments, unreadable inputs or a rule file that is
// not a JSON array (never read as "no rules").
import { oracleCheckFiles } from '../../../app/workorders/oracle-check';
import { err, out, parseKernelFlags } from './io';

export function main(argv: string[]): number {
  const flags = parseKernelFlags(argv, ['--diff-from', '--oracle-files']);
  const result = oracleCheckFiles(
    flags.positionals[0] ?? '',
    flags.values.get('--diff-from') ?? '',
    flags.values.get('--oracle-files'),
  );
  if (!result.ok) {
    err(`wo-oracle-check: ${result.problem}`);
    return 2;
  }
  out(result.verdict);
  return 0;
}
