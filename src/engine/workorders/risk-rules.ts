// Risk-tiering rules: the plugin's own `references/risk-tiering-rules.json` when it is there
// (read the same way the original reads it), else data of our own.
// A realized diff touching a security-sensitive path is `high`; executable code is `medium`;
// everything else `low`. `tier_model_map` is advisory (which builder to route a tier to).

export interface RiskRules {
  /** Shell-style globs where `*` also spans '/', matched against each changed path. */
  security_globs: string[];
  /** Lower-case file extensions that count as executable code. */
  executable_extensions: string[];
  /** The gate floor every work order has; a gate beyond it (recipe-added) raises the tier. */
  base_gate_floor: string[];
  tier_model_map: Record<string, string>;
}

export const RISK_RULES: RiskRules = {
  security_globs: [
    '*auth*',
    '*login*',
    '*password*',
    '*secret*',
    '*token*',
    '*crypt*',
    '*permission*',
    '*acl*',
    '*session*',
    '*.pem',
    '*.key',
    '*.env',
    '.env*',
    '*/.env*',
    '*sudo*',
    '*oauth*',
    '*csrf*',
    '*sanitiz*',
    '*/migrations/*',
    '.github/workflows/*',
    '*Dockerfile*',
    'package-lock.json',
    '*/package-lock.json',
  ],
  executable_extensions: [
    'js',
    'mjs',
    'cjs',
    'ts',
    'tsx',
    'jsx',
    'py',
    'rb',
    'php',
    'go',
    'rs',
    'java',
    'kt',
    'c',
    'cc',
    'cpp',
    'h',
    'hpp',
    'cs',
    'sh',
    'bash',
    'zsh',
    'ps1',
    'sql',
    'module',
    'inc',
    'install',
    'theme',
    'swift',
    'scala',
    'lua',
    'pl',
  ],
  base_gate_floor: ['tests', 'lint', 'security', 'review'],
  tier_model_map: { low: 'standard', medium: 'standard', high: 'top', security: 'top' },
};

/** The three lists the tiering reads from a rules file; each a list of strings, else empty. */
function stringList(value: unknown): string[] {
  return Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string') : [];
}

/**
 * Rules from the text of a `risk-tiering-rules.json`: its `security_globs`,
 * `executable_extensions` and `base_gate_floor` (a missing or non-list key reads as empty, as the
 * original's `jq '.key[]'` does). Undefined when the text is not a JSON object: the caller fails
 * closed instead of silently using other rules.
 */
export function parseRiskRules(text: string): RiskRules | undefined {
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch {
    return undefined;
  }
  if (typeof data !== 'object' || data === null || Array.isArray(data)) return undefined;
  const d = data as Record<string, unknown>;
  const map = d.tier_model_map;
  const tierModelMap: Record<string, string> = {};
  if (typeof map === 'object' && map !== null && !Array.isArray(map))
    for (const [k, v] of Object.entries(map)) if (typeof v === 'string') tierModelMap[k] = v;
  return {
    security_globs: stringList(d.security_globs),
    executable_extensions: stringList(d.executable_extensions),
    base_gate_floor: stringList(d.base_gate_floor),
    tier_model_map: tierModelMap,
  };
}
