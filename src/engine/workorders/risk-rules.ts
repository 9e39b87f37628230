// Risk-tiering rules, as data of our own (the original ships its own JSON; these are ours).
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
