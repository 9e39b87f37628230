// `validate` for loop-engineering contracts, kept apart from ../validate.ts so the work-loop path
// stays as it was: stdout carries the original validator's report (`PASS loop contract` + its
// summary, or `FAIL loop contract` + `- <finding>` lines), or with --json its payload
// `{contract, valid, errors, findings}`; stderr one located line per finding.
import type { EngineeringValidateOutcome } from '../../../app/engineering/validate';
import type { FlagSpec } from '../../args';
import type { CommandOutcome } from '../../outcome';

export const STRICT_FLAG: FlagSpec = {
  type: 'boolean',
  help: 'loop-engineering contracts: also apply the strict rules (review ceiling, integration gate, automation trigger)',
};

/** The command's outcome for a loop-engineering contract's validation. */
export function engineeringCommandOutcome(outcome: EngineeringValidateOutcome): CommandOutcome {
  const { report, ...rest } = outcome;
  return report === undefined ? rest : { ...rest, human: report };
}
