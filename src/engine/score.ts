// Rubric arithmetic: per-dimension score, weighted total and the hard-gate verdict.
import { round4 } from './round';
import { ownValue } from './text-keyed';
import type { DimensionScore, Evaluation, RubricDimension } from './types';

/** True when the measurement is on the wrong side of the dimension's failure threshold. */
export function gateFailed(dim: RubricDimension, measured: number): boolean {
  return dim.direction === 'lower-is-better'
    ? measured > dim.failure_threshold
    : measured < dim.failure_threshold;
}

function dimensionScore(dim: RubricDimension, measured: number, failed: boolean): number {
  if (dim.must_not_regress === true) return failed ? 0 : 100;
  const raw = ((measured - dim.baseline) / (dim.target - dim.baseline)) * 100;
  return round4(Math.min(100, Math.max(0, raw)));
}

/** Scores one measurement per dimension; `measurements` must cover the whole rubric. */
export function scoreRubric(rubric: RubricDimension[], measurements: Record<string, number>): Evaluation {
  const dimensions: DimensionScore[] = [];
  let weighted = 0;
  let weights = 0;
  const failures: string[] = [];
  for (const dim of rubric) {
    const measured = ownValue(measurements, dim.dimension) as number;
    const failed = gateFailed(dim, measured);
    const score = dimensionScore(dim, measured, failed);
    weighted += dim.weight * score;
    weights += dim.weight;
    if (dim.hard_gate && failed) failures.push(dim.dimension);
    // Keys in sorted order: records are written with sorted keys.
    dimensions.push({
      dimension: dim.dimension,
      evidence_command: dim.evidence_command,
      failure_threshold: dim.failure_threshold,
      gate_failed: failed,
      hard_gate: dim.hard_gate,
      measured,
      must_not_regress: dim.must_not_regress === true,
      score,
      weight: dim.weight,
    });
  }
  return {
    dimensions,
    hard_gate_failures: failures,
    verdict: failures.length > 0 ? 'fail' : 'pass',
    weighted_total: round4(weights > 0 ? weighted / weights : 0),
  };
}
