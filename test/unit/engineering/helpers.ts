// A valid loop-engineering contract (the original's own test fixture values) and ways to vary it.
import { REQUIRED_FIELDS } from '../../../src/engine/engineering/fields';

export const VALID_FIELDS: Record<string, string> = {
  objective: 'Repair the bounded failing workflow.',
  mode: 'Goal.',
  trigger: 'Manual start from fresh failure evidence.',
  scope: 'One package and its tests.',
  'non-goals': 'No dependency upgrades or external changes.',
  owner: 'Primary agent.',
  inputs: 'Failure log and current repository state.',
  'artifacts path': '.agent-state/artifacts/.',
  'state path': '.agent-state/loop-state.md.',
  'work clock': '.agent-state/work-clock.md.',
  'success metric': 'Tests and lint both exit zero.',
  evidence: 'Fresh command output and diff.',
  verifier: 'Deterministic test and lint commands.',
  topology: 'single-agent.',
  'max iterations': '4.',
  'time limit': '35 minutes.',
  budget: '18 tool calls.',
  'review budget': '800 changed lines and 8 files.',
  'stop condition': 'Verifier passes or a finite cap fires.',
  'write-back': 'Append the receipt to the state path.',
  'permission boundary': 'Local-only writes; no production or external changes.',
  recovery: 'Restore the prior checkpoint after a regression.',
};

const title = (field: string): string => field.charAt(0).toUpperCase() + field.slice(1);

/** `Field: value` lines for the valid contract with `overrides` (null drops a field). */
export function contractText(overrides: Record<string, string | null> = {}, eol = '\n'): string {
  const lines = ['# Loop contract', ''];
  for (const field of REQUIRED_FIELDS) {
    const value = field in overrides ? overrides[field] : VALID_FIELDS[field];
    if (value === null || value === undefined) continue;
    lines.push(`${title(field)}: ${value}`);
  }
  for (const [key, value] of Object.entries(overrides)) {
    if (!(REQUIRED_FIELDS as readonly string[]).includes(key) && value !== null)
      lines.push(`${title(key)}: ${value}`);
  }
  return lines.join(eol) + eol;
}

/** The compact template the seed asks an author to fill (several fields per line). */
export const SEED_TEMPLATE = [
  'Objective:                 Mode: Goal | Loop | Automation | AutoResearch',
  'Trigger:                   Scope:                 Non-goals:',
  'Owner:                     Inputs:',
  'Artifacts path:            State path:            Work clock:',
  'Success metric:            Evidence:              Verifier:',
  'Topology: single-agent | maker-checker | manager-workers',
  'Max iterations:            Time limit:            Budget:',
  'Review budget:             Stop condition:',
  'Write-back:                Permission boundary:   Recovery:',
].join('\n');
