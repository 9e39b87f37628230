// What an agent or check sees: its environment (every parent LOOP_* scrubbed but the documented
// ones) and the role JSON on stdin. No artifact path ever reaches an agent.
import { sortKeysDeep } from '../ledger-view';
import type { AgentRole } from './agent-config';
import type { CheckRecord } from './receipt';

/** Artifact locations that must never reach an agent, even if a caller sets them. */
const RESERVED = ['LOOP_RUN_DIR', 'LOOP_CHECKS_JSON', 'LOOP_DIFF_PATH'];
/** The one parent LOOP_* variable passed through on purpose (fixtures read it). */
const INTENTIONAL = ['LOOP_FIXTURE_MODE'];

export function agentEnv(
  parent: Record<string, string | undefined>,
  extra: Record<string, string>,
): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [k, v] of Object.entries(parent)) {
    if (v === undefined) continue;
    if (!k.startsWith('LOOP_') || INTENTIONAL.includes(k)) env[k] = v;
  }
  env.PYTHONDONTWRITEBYTECODE = '1';
  Object.assign(env, extra);
  for (const key of RESERVED) delete env[key];
  return env;
}

export interface RoleRequest {
  objective: string;
  allowedGlobs: string[];
  checks: string[];
}

/** The prompt text: JSON with sorted keys, two-space indent, saved verbatim as `<role>-prompt.md`. */
export function rolePrompt(request: RoleRequest, role: AgentRole, extra: Record<string, unknown>): string {
  return JSON.stringify(
    sortKeysDeep({
      objective: request.objective,
      allowed_globs: request.allowedGlobs,
      checks: request.checks,
      ...extra,
      role,
    }),
    null,
    2,
  );
}

/** What the reviewer sees of each check: no log paths, only excerpts. */
export function publicCheckResults(checks: readonly CheckRecord[]): Record<string, unknown>[] {
  return checks.map((c) => ({
    command: c.command,
    returncode: c.returncode,
    stderr_excerpt: c.stderr_excerpt,
    stdout_excerpt: c.stdout_excerpt,
  }));
}

/** stdout trimmed and parsed as one JSON value; undefined when it is not JSON. */
export function parseAgentStdout(stdout: string): unknown {
  const text = stdout.trim();
  if (text === '') return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}
