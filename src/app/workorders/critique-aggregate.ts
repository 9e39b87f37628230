// `wo critique-aggregate`'s operation: the critics' files for one work order, aggregated.
import { aggregateCritique } from '../../engine/workorders/critique';
import { criticFiles } from '../../drivers/workorders/artifacts';

export function aggregateCritiqueIn(
  criticsDir: string,
  input: Parameters<typeof aggregateCritique>[0],
): ReturnType<typeof aggregateCritique> {
  return aggregateCritique(input, criticFiles(criticsDir, input.wo));
}
