// `validate` for loop-engineering contracts, kept apart from validate.ts so the work-loop path
// stays as it was: stdout carries the original validator's report (`PASS loop contract` + its
// summary, or `FAIL loop contract` + `- <finding>` lines), or with --json its payload
// `{contract, valid, errors, findings}`; stderr one located line per finding.
import { validateEngineeringFile } from '../../app/engineering-validate';
import type { FlagSpec, ParsedFlags } from '../args';
import type { CommandOutcome } from '../outcome';

export const STRICT_FLAG: FlagSpec = {
  type: 'boolean',
  help: 'loop-engineering contracts: also apply the strict rules (review ceiling, integration gate, automation trigger)',
};

/** The outcome for a loop-engineering contract, or null when `path` is not one. */
export function validateEngineering(flags: ParsedFlags, path: string): CommandOutcome | null {
  const outcome = validateEngineeringFile(path, flags.strict === true);
  if (!outcome) return null;
  const { report, ...rest } = outcome;
  return report === undefined ? rest : { ...rest, human: report };
}
