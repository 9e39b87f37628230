// `wo oracle-check`'s operation: read the work order, its name-status diff and the rules file,
// and judge which changed files the work order's oracle class allows. A missing input or a rule
// file that is not a JSON array is refused with the line to print (never read as "no rules").
import { frontmatterRegion } from '../../engine/workorders/frontmatter';
import { readFrontmatter } from '../../engine/workorders/frontmatter-yaml';
import { nameStatusChanges, oracleCheck, oracleClasses, oracleRules } from '../../engine/workorders/oracle';
import { readText } from '../../drivers/workorders/files';

export type OracleResult =
  { ok: true; verdict: ReturnType<typeof oracleCheck> } | { ok: false; problem: string };

export function oracleCheckFiles(
  woFile: string,
  diffPath: string,
  rulesPath: string | undefined,
): OracleResult {
  const woText = woFile ? readText(woFile) : undefined;
  if (woText === undefined)
    return { ok: false, problem: `wo-file missing or unreadable: ${woFile || '<none>'}` };
  const diff = diffPath ? readText(diffPath) : undefined;
  if (diff === undefined)
    return { ok: false, problem: `--diff-from file missing or unreadable: ${diffPath || '<none>'}` };
  let rules: unknown = [];
  if (rulesPath !== undefined) {
    const text = readText(rulesPath);
    if (text === undefined)
      return { ok: false, problem: `--oracle-files file missing or unreadable: ${rulesPath}` };
    try {
      rules = JSON.parse(text);
    } catch {
      rules = undefined;
    }
  }
  if (!Array.isArray(rules)) return { ok: false, problem: '--oracle-files is not a JSON array' };
  // An exemption counts only inside a closed frontmatter block (never from body prose).
  const region = frontmatterRegion(woText);
  const closed = region.start >= 0 && region.end < region.lines.length;
  const fm = closed ? readFrontmatter(woText) : undefined;
  return {
    ok: true,
    verdict: oracleCheck(
      oracleRules(rules),
      nameStatusChanges(diff),
      oracleClasses(fm?.ok ? fm.data : undefined),
    ),
  };
}
