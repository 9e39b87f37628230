// Which risk-tiering rules apply: the plugin's own `$CLAUDE_PLUGIN_ROOT/references/
// risk-tiering-rules.json` when that file is there (its gate floor and globs are the ones its
// work orders were written against), else our built-in rules. Read through the bounded reader,
// so a FIFO or a device in the file's place cannot hang the kernel.
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { parseRiskRules, RISK_RULES, type RiskRules } from '../../engine/workorders/risk-rules';
import { readText } from './files';

/** The rules to tier with; null when the plugin's file is there but unreadable or not a JSON object. */
export function riskRules(env: NodeJS.ProcessEnv = process.env): RiskRules | null {
  const root = env.CLAUDE_PLUGIN_ROOT;
  if (!root) return RISK_RULES;
  const path = join(root, 'references', 'risk-tiering-rules.json');
  if (!existsSync(path)) return RISK_RULES;
  const text = readText(path);
  return text === undefined ? null : (parseRiskRules(text) ?? null);
}
