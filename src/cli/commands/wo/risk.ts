// `loop-ledger wo risk-classify [<wo-file>] --files-from LIST [--gate-floor CSV] [--verified B]
// [--collapsed-scc B]` — always exits 0; an undeterminable input is `high`. The rules are the
// plugin's `$CLAUDE_PLUGIN_ROOT/references/risk-tiering-rules.json` when present, else ours.
import { readFrontmatter } from '../../../engine/workorders/frontmatter-yaml';
import { classifyRisk } from '../../../engine/workorders/risk';
import { readText } from '../../../drivers/workorders/files';
import { riskRules } from '../../../drivers/workorders/risk-rules';
import { out, parseFlags } from './io';

export function main(argv: string[]): number {
  const flags = parseFlags(argv, ['--files-from', '--gate-floor', '--verified', '--collapsed-scc']);
  const woFile = flags.positionals[0];
  let gateFloor = flags.values.get('--gate-floor') ?? '';
  let collapsed = flags.values.get('--collapsed-scc') ?? '';
  if (woFile) {
    const text = readText(woFile);
    const fm = text === undefined ? undefined : readFrontmatter(text);
    if (fm?.ok) {
      const floor = fm.data.gate_floor;
      if (gateFloor === '' && Array.isArray(floor)) gateFloor = floor.map(String).join(',');
      if (collapsed === '') collapsed = String(fm.data.collapsed_scc === true);
    }
  }
  const listPath = flags.values.get('--files-from') ?? '';
  const list = listPath === '' ? undefined : readText(listPath);
  out(
    classifyRisk(
      {
        files: list === undefined ? undefined : list.split('\n'),
        gateFloor,
        collapsedScc: collapsed === 'true',
      },
      riskRules(),
    ),
  );
  return 0;
}
