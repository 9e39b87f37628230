// The agent config (`--agent-config`, TOML): three tables with `cmd`, `writes`, `timeout_seconds`,
// read with the original's rules. The shell parses the TOML; this checks the
// parsed value and expands the `{python}` `{node}` `{config_dir}` `{skill_dir}` placeholders.
import { timeoutTooLong } from '../timeout-limit';
import { quote } from 'shlex';

export const ROLES = ['explorer', 'coder', 'code-reviewer'] as const;
export type AgentRole = (typeof ROLES)[number];

export interface AgentSpec {
  role: AgentRole;
  /** A string runs through `/bin/sh -c`; an array is exec'd without a shell. */
  cmd: string | string[];
  writes: boolean;
  timeoutSeconds: number;
}

export type AgentConfig = Record<AgentRole, AgentSpec>;

export interface PlaceholderValues {
  python: string;
  node: string;
  config_dir: string;
  skill_dir: string;
}

export class AgentConfigError extends Error {}

/** Python's truthiness for the values TOML can hold (`writes = "false"` is true, as in the original). */
function truthy(value: unknown): boolean {
  if (value === undefined || value === null || value === false || value === 0 || value === '') return false;
  if (Array.isArray(value)) return value.length > 0;
  if (value instanceof Date) return true;
  if (typeof value === 'object') return Object.keys(value as object).length > 0;
  return true;
}

/** Python's `int()` over a TOML value: ints, floats (truncated), booleans, digit strings. */
function pythonInt(value: unknown, where: string): number {
  if (typeof value === 'boolean') return value ? 1 : 0;
  if (typeof value === 'number' && Number.isFinite(value)) return Math.trunc(value);
  if (typeof value === 'bigint') return Number(value);
  if (typeof value === 'string' && /^\s*[+-]?\d+(_\d+)*\s*$/.test(value))
    return Number(value.replace(/_/g, ''));
  // JSON has no spelling for these (JSON.stringify gives "null"): say them as the TOML file does.
  if (typeof value === 'number')
    throw new AgentConfigError(
      `${where}: must be a finite number of seconds, got ${Number.isNaN(value) ? 'nan' : value > 0 ? 'inf' : '-inf'}`,
    );
  throw new AgentConfigError(
    `${where}: expected a whole number of seconds, got ${JSON.stringify(value) ?? String(value)}`,
  );
}

/**
 * Python's `str.format(**values)` for plain names: `{name}` substituted, `{{` and `}}` literal
 * braces. Anything else (`{0}`, `{a.b}`, an unknown name, a lone brace) is refused, where the
 * original crashed with a traceback.
 */
export function formatPlaceholders(template: string, values: Record<string, string>, where: string): string {
  let out = '';
  let i = 0;
  while (i < template.length) {
    const c = template[i] as string;
    if (c === '{' && template[i + 1] === '{') {
      out += '{';
      i += 2;
    } else if (c === '}' && template[i + 1] === '}') {
      out += '}';
      i += 2;
    } else if (c === '{') {
      const end = template.indexOf('}', i);
      if (end < 0) throw new AgentConfigError(`${where}: unmatched '{' in ${JSON.stringify(template)}`);
      const name = template.slice(i + 1, end);
      if (!Object.prototype.hasOwnProperty.call(values, name))
        throw new AgentConfigError(
          `${where}: unknown placeholder {${name}} (known: ${Object.keys(values)
            .map((k) => `{${k}}`)
            .join(' ')})`,
        );
      out += values[name];
      i = end + 1;
    } else if (c === '}') {
      throw new AgentConfigError(`${where}: single '}' in ${JSON.stringify(template)}`);
    } else {
      out += c;
      i += 1;
    }
  }
  return out;
}

function expandCmd(cmd: string | string[], values: PlaceholderValues, where: string): string | string[] {
  const raw = values as unknown as Record<string, string>;
  if (typeof cmd === 'string') {
    // In shell form the values are quoted for the shell, as Python's shlex.quote would.
    const quoted: Record<string, string> = {};
    for (const [k, v] of Object.entries(raw)) quoted[k] = quote(v);
    return formatPlaceholders(cmd, quoted, where);
  }
  return cmd.map((part) => formatPlaceholders(part, raw, where));
}

/** Reads the parsed TOML of an agent config, or throws AgentConfigError naming the file and table. */
export function readAgentConfig(parsed: unknown, file: string, values: PlaceholderValues): AgentConfig {
  const data = (parsed ?? {}) as Record<string, unknown>;
  const out: Partial<AgentConfig> = {};
  for (const role of ROLES) {
    const block = data[role];
    if (block === null || typeof block !== 'object' || Array.isArray(block) || block instanceof Date)
      throw new AgentConfigError(`${file}: missing [${role}]`);
    const table = block as Record<string, unknown>;
    const cmd = table.cmd;
    if (typeof cmd !== 'string' && !Array.isArray(cmd))
      throw new AgentConfigError(`${file}: [${role}].cmd must be string or array`);
    if (Array.isArray(cmd) && !cmd.every((x) => typeof x === 'string'))
      throw new AgentConfigError(`${file}: [${role}].cmd array entries must be strings`);
    if (Array.isArray(cmd) && cmd.length === 0)
      throw new AgentConfigError(`${file}: [${role}].cmd array must name a program`);
    const timeoutSeconds =
      'timeout_seconds' in table
        ? pythonInt(table.timeout_seconds, `${file}: [${role}].timeout_seconds`)
        : 300;
    const tooLong = timeoutTooLong(`${file}: [${role}].timeout_seconds`, timeoutSeconds);
    if (tooLong) throw new AgentConfigError(tooLong);
    out[role] = {
      role,
      cmd: expandCmd(cmd as string | string[], values, `${file}: [${role}].cmd`),
      writes: truthy(table.writes),
      timeoutSeconds,
    };
  }
  const config = out as AgentConfig;
  if (config.explorer.writes) throw new AgentConfigError(`${file}: explorer must be read-only`);
  if (!config.coder.writes) throw new AgentConfigError(`${file}: coder must be write-capable`);
  if (config['code-reviewer'].writes) throw new AgentConfigError(`${file}: code-reviewer must be read-only`);
  return config;
}

/** `{skill_dir}` is the parent of the config's folder, as in the original. */
export function skillDirOf(configDir: string): string {
  const trimmed = configDir.replace(/\/+$/, '');
  const cut = trimmed.lastIndexOf('/');
  return cut <= 0 ? '/' : trimmed.slice(0, cut);
}
