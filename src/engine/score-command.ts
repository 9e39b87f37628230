// `score`: score measurements against the rubric without recording anything.
import { parseMeasurements } from './measurements';
import { EXIT, refuse, type Refusal } from './refusal';
import { scoreRubric } from './score';
import type { Evaluation, Ledger } from './types';

/** `score`: writes nothing, works on a closed ledger; exit 6 when a hard gate is breached. */
export function score(
  ledger: Ledger,
  measures: string[],
): { payload: Evaluation; exitCode: 0 | 6 } | Refusal {
  const rubric = ledger.contract.quality_rubric;
  if (!Array.isArray(rubric) || rubric.length === 0) {
    return refuse(EXIT.malformed, [
      `${ledger.session}: the contract declares no quality_rubric to score against`,
    ]);
  }
  const parsed = parseMeasurements(measures, rubric, true);
  if (parsed.findings.length > 0) return refuse(EXIT.malformed, parsed.findings);
  const payload = scoreRubric(rubric, parsed.values);
  return { payload, exitCode: payload.verdict === 'fail' ? EXIT.gateBreached : EXIT.ok };
}
