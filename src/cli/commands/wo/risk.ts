// `loop-ledger wo risk-classify [<wo-file>] --files-from LIST [--gate-floor CSV] [--verified B]
// [--collapsed-scc B]` — always exits 0; an undeterminable input is `high`. The rules are the
// plugin's `$CLAUDE_PLUGIN_ROOT/references/risk-tiering-rules.json` when present, else ours.
import { classifyWorkOrderRisk } from '../../../app/workorders/risk-classify';
import { out, parseKernelFlags } from './io';

export function main(argv: string[]): number {
  const flags = parseKernelFlags(argv, ['--files-from', '--gate-floor', '--verified', '--collapsed-scc']);
  out(
    classifyWorkOrderRisk({
      woFile: flags.positionals[0],
      filesFrom: flags.values.get('--files-from') ?? '',
      gateFloor: flags.values.get('--gate-floor') ?? '',
      collapsedScc: flags.values.get('--collapsed-scc') ?? '',
    }),
  );
  return 0;
}
