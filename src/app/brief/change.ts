// The change a critic brief is assembled from, read from git. The window's Assemble Critic Brief
// and the MCP `brief` tool both call this, so a refused range and a git failure are decided once.
import { rangeProblem, readChange, type ChangeChoice, type ChangeTexts } from '../../drivers/git/changes';

// The picker's labels and the range check are the same rules the read applies; the window shows
// them while a person chooses.
export { CHANGE_LABELS, rangeProblem, type ChangeChoice, type ChangeTexts } from '../../drivers/git/changes';

/** The change's texts, a range refused before git runs, or why git could not produce it. */
export type BriefChange = { texts: ChangeTexts } | { refused: string } | { failed: string };

export async function readBriefChange(root: string, choice: ChangeChoice): Promise<BriefChange> {
  if (choice.kind === 'range') {
    const problem = rangeProblem((choice.range ?? '').trim());
    if (problem) return { refused: problem };
  }
  try {
    return { texts: await readChange(root, choice) };
  } catch (error) {
    return { failed: error instanceof Error ? error.message : String(error) };
  }
}
