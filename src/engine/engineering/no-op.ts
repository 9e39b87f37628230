// NO_OP: a quiet iteration counts as success only when the contract allows it
// and declares its eligibility query, that query found no eligible work, the outputs stay within
// policy, nothing had a side effect and no file changed — otherwise silence is missing evidence.
import type { EngineeringState } from './state';

export interface NoOpInput {
  eligibleCount: string | null;
  outputCount: string | null;
  sideEffects: string | null;
  filesChanged: string[];
  evidencePaths: string[];
}

export interface NoOpRecord {
  query: string;
  eligible_count: number;
  output_count: number;
  output_limit: number;
  side_effects: number;
  evidence_paths: string[];
}

function count(flag: string, text: string | null, problems: string[]): number | null {
  if (text === null) {
    problems.push(`--no-op needs ${flag}`);
    return null;
  }
  if (!/^\s*\d+\s*$/.test(text)) {
    problems.push(`${flag} ${text}: must be a whole number of 0 or more`);
    return null;
  }
  return Number(text);
}

/** The `no_op` record key, or every reason the quiet iteration is refused. */
export function checkNoOp(
  state: EngineeringState | null,
  input: NoOpInput,
): NoOpRecord | { problems: string[] } {
  const problems: string[] = [];
  if (state === null)
    problems.push('--no-op needs a loop opened with --engineering (its contract declares the NO_OP policy)');
  else if (state.no_op === null) {
    problems.push(
      '--no-op: the contract does not allow NO_OP (declare its eligibility query in a "No-op:" field)',
    );
  }
  const eligible = count('--eligible-count', input.eligibleCount, problems);
  const outputs = count('--output-count', input.outputCount, problems);
  const effects = count('--side-effects', input.sideEffects, problems);
  const limit = state?.no_op?.output_limit ?? 0;
  if (eligible !== null && eligible > 0)
    problems.push(`--eligible-count ${eligible}: the eligibility query found work, so this is no NO_OP`);
  if (outputs !== null && outputs > limit)
    problems.push(`--output-count ${outputs}: over the contract's NO_OP output limit ${limit}`);
  if (effects !== null && effects > 0)
    problems.push(`--side-effects ${effects}: a NO_OP iteration has no side effects`);
  if (input.filesChanged.length > 0)
    problems.push(`--files-changed ${input.filesChanged[0]}: a NO_OP iteration changes no files`);
  if (input.evidencePaths.length === 0)
    problems.push("--no-op needs an --evidence-path: the eligibility query's output");
  if (problems.length > 0 || state?.no_op == null) return { problems };
  return {
    query: state.no_op.query,
    eligible_count: eligible as number,
    output_count: outputs as number,
    output_limit: limit,
    side_effects: effects as number,
    evidence_paths: [...input.evidencePaths],
  };
}
