// `risk-classify`: one work order's realized diff → a risk tier (high > medium > low), fail-closed:
// an undeterminable input (no file list, no gate floor, empty diff) is `high`.
import { fnmatchRegExp } from '../run/fnmatch';
import { RISK_RULES, type RiskRules } from './risk-rules';

export interface RiskInput {
  /** Lines of the --files-from list, or undefined when the list is missing. */
  files?: string[];
  /** Comma-separated gate floor ('' when unknown). */
  gateFloor: string;
  collapsedScc: boolean;
}

export interface RiskPayload {
  schema_version: '1.0';
  risk_tier: 'low' | 'medium' | 'high';
  trigger: string;
  executable_change: boolean;
  unresolved: boolean;
  diff_signature: string[];
  gates_recommended: string[];
  reason: string;
}

function extensionOf(file: string): string {
  const name = file.slice(file.lastIndexOf('/') + 1);
  const dot = file.lastIndexOf('.');
  return dot >= 0 && dot >= file.length - name.length - 1 ? file.slice(dot + 1).toLowerCase() : '';
}

/** `rules` null: a rules file is there but unreadable, so nothing can be tiered (fail-closed). */
export function classifyRisk(input: RiskInput, rules: RiskRules | null = RISK_RULES): RiskPayload {
  const emit = (
    tier: RiskPayload['risk_tier'],
    trigger: string,
    exec: boolean,
    unresolved: boolean,
    sig: string[],
    gates: string[],
    reason: string,
  ): RiskPayload => ({
    schema_version: '1.0',
    risk_tier: tier,
    trigger,
    executable_change: exec,
    unresolved,
    diff_signature: sig,
    gates_recommended: gates,
    reason,
  });
  if (rules === null)
    return emit(
      'high',
      'unresolved:rules_unreadable',
      false,
      true,
      [],
      [],
      'risk-tiering-rules.json unreadable',
    );
  if (input.files === undefined)
    return emit('high', 'unresolved:files_missing', false, true, [], [], 'changed-files list missing');
  if (input.gateFloor.trim() === '')
    return emit('high', 'unresolved:gate_floor_missing', false, true, [], [], 'gate_floor not supplied');
  const files = input.files.map((f) => f.replace(/\r$/, '')).filter((f) => f.trim() !== '');
  // Security globs are whole-path shell globs (`*` spans '/'): the harness's fnmatch rules.
  const security = rules.security_globs.map(fnmatchRegExp);
  let securityMatch = false;
  let executable = false;
  const signature = new Set<string>();
  for (const file of files) {
    if (security.some((re) => re.test(file))) securityMatch = true;
    const ext = extensionOf(file);
    signature.add(ext === '' ? '(none)' : ext);
    if (ext !== '' && rules.executable_extensions.includes(ext)) executable = true;
  }
  const gates = new Set<string>();
  if (executable) ['tests', 'lint'].forEach((g) => gates.add(g));
  if (securityMatch) gates.add('security');
  const gateSuper = input.gateFloor
    .split(',')
    .map((g) => g.replace(/\s/g, ''))
    .some((g) => g !== '' && !rules.base_gate_floor.includes(g));
  const sig = [...signature].sort();
  const gateList = [...gates].sort();
  if (files.length === 0)
    return emit(
      'high',
      'unresolved:empty_diff',
      executable,
      true,
      sig,
      gateList,
      'undeterminable diff => fail-closed high',
    );
  if (securityMatch)
    return emit(
      'high',
      'security_glob',
      executable,
      false,
      sig,
      gateList,
      'realized diff matches a security-sensitive path',
    );
  if (gateSuper)
    return emit(
      'high',
      'recipe_added_gate',
      executable,
      false,
      sig,
      gateList,
      'gate_floor superset of base (recipe-flagged)',
    );
  if (input.collapsedScc)
    return emit(
      'high',
      'collapsed_scc',
      executable,
      false,
      sig,
      gateList,
      'WO merged a strongly-connected component',
    );
  if (executable)
    return emit(
      'medium',
      'executable_change',
      true,
      false,
      sig,
      gateList,
      'executable-code change => >= medium with security lens',
    );
  return emit('low', 'none', false, false, sig, gateList, 'non-executable; determinable; no security signal');
}
