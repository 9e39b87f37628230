// `loop-ledger wo oracle-check <wo-file> --diff-from <name-status-file> [--oracle-files <rules.json>]`:
// exit 0 with the verdict in JSON; 2 on bad arguments, unreadable inputs or a rule file that is
// not a JSON array (never read as "no rules").
import { frontmatterRegion } from '../../../engine/workorders/frontmatter';
import { readFrontmatter } from '../../../engine/workorders/frontmatter-yaml';
import {
  nameStatusChanges,
  oracleCheck,
  oracleClasses,
  oracleRules,
} from '../../../engine/workorders/oracle';
import { readText } from '../../../drivers/workorders/files';
import { err, out, parseFlags } from './io';

export function main(argv: string[]): number {
  const flags = parseFlags(argv, ['--diff-from', '--oracle-files']);
  const woFile = flags.positionals[0] ?? '';
  const woText = woFile ? readText(woFile) : undefined;
  if (woText === undefined) {
    err(`wo-oracle-check: wo-file missing or unreadable: ${woFile || '<none>'}`);
    return 2;
  }
  const diffPath = flags.values.get('--diff-from') ?? '';
  const diff = diffPath ? readText(diffPath) : undefined;
  if (diff === undefined) {
    err(`wo-oracle-check: --diff-from file missing or unreadable: ${diffPath || '<none>'}`);
    return 2;
  }
  let rules: unknown = [];
  const rulesPath = flags.values.get('--oracle-files');
  if (rulesPath !== undefined) {
    const text = readText(rulesPath);
    if (text === undefined) {
      err(`wo-oracle-check: --oracle-files file missing or unreadable: ${rulesPath}`);
      return 2;
    }
    try {
      rules = JSON.parse(text);
    } catch {
      rules = undefined;
    }
  }
  if (!Array.isArray(rules)) {
    err('wo-oracle-check: --oracle-files is not a JSON array');
    return 2;
  }
  // An exemption counts only inside a closed frontmatter block (never from body prose).
  const region = frontmatterRegion(woText);
  const closed = region.start >= 0 && region.end < region.lines.length;
  const fm = closed ? readFrontmatter(woText) : undefined;
  out(oracleCheck(oracleRules(rules), nameStatusChanges(diff), oracleClasses(fm?.ok ? fm.data : undefined)));
  return 0;
}
