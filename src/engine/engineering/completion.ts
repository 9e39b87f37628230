// What a `complete` must show: success is a verified result, never a claim.
// On a loop-engineering ledger every `complete` — with or without a `--termination` signal —
// needs the declared verifier to have passed on that iteration and the evidence it passed on;
// on a plain ledger only a `--termination complete` is held to the verifier (the harness rule).
// A NO_OP is judged by its own policy (no-op.ts: the eligibility query and counts) instead.
import type { Finding, IterationRecord } from '../types';
import type { EngineeringState } from './state';
import type { TerminationReason } from './termination';

/** A passing verifier on this iteration: the rubric scored pass, or the critic said PASS. */
export function verified(record: IterationRecord): boolean {
  return record.evaluation?.verdict === 'pass' || record.critic_verdict === 'PASS';
}

const HOW_TO_VERIFY = '--measure scoring pass, or --critic-verdict PASS on a brief';

/** Why this `complete` may not be recorded; empty when it may (or when it is not a `complete`). */
export function completionFindings(
  record: IterationRecord,
  state: EngineeringState | null,
  facts: { noOp: boolean; termination: TerminationReason | null },
): Finding[] {
  if (record.outcome !== 'complete' || facts.noOp) return [];
  if (state === null) {
    if (facts.termination !== 'complete' || verified(record)) return [];
    return [
      {
        message: `--termination complete with --outcome complete needs a passing verifier on this iteration (${HOW_TO_VERIFY})`,
        code: 'complete-unverified',
      },
    ];
  }
  const findings: Finding[] = [];
  if (!verified(record)) {
    const verifier = state.fields.verifier ?? '';
    findings.push({
      message: `--outcome complete: the contract's verifier (${JSON.stringify(verifier)}) must pass on this iteration (${HOW_TO_VERIFY}); an unverified end is not success`,
      code: 'complete-unverified',
    });
  }
  if (record.evidence_paths.length === 0) {
    const evidence = state.fields.evidence ?? '';
    findings.push({
      message: `--outcome complete needs --evidence-path: the stop condition is met only on evidence (the contract's evidence: ${JSON.stringify(evidence)})`,
      code: 'complete-no-evidence',
    });
  }
  return findings;
}
