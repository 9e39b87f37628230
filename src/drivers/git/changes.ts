// The four kinds of change a brief can be assembled from, and the git arguments that produce
// each one's diff and its `--stat` (the change scope the engine checks the diff against). The
// diff and the stat of one change always come from the same revisions.
import * as l10n from '@vscode/l10n';
import type { ChangeKind, ChangeRef } from '../../shared/protocol';
import { DIFF_OPTIONS, runGit } from './git';
import { revisionProblem } from './revisions';

export interface ChangeChoice {
  kind: ChangeKind;
  /** For `range`: `A..B` (or `A...B`); ignored otherwise. */
  range?: string;
}

export const CHANGE_LABELS = (): Record<ChangeKind, string> => ({
  workingTree: l10n.t('Working tree vs HEAD'),
  staged: l10n.t('Staged changes'),
  lastCommit: l10n.t('Last commit'),
  range: l10n.t('Commit range'),
});

const COMMON = [...DIFF_OPTIONS, '--find-renames'];
/** Revisions go after this, so none can be read as an option. */
const END = '--end-of-options';
/** Wide enough that git never abbreviates a path to `.../tail`. */
const STAT = '--stat=10000,9000';

/** `A..B` or `A...B` with revisions that cannot be mistaken for options. */
const RANGE = /^([^\s.-][^\s]*?)(\.\.\.?)([^\s.-][^\s]*)$/;

/** Why `text` is not a usable commit range, or undefined when it is. */
export function rangeProblem(text: string): string | undefined {
  const match = RANGE.exec(text.trim());
  if (!match) return l10n.t('Write a range as A..B (for example main..HEAD or a1b2c3..d4e5f6).');
  return revisionProblem(match[1]!) ?? revisionProblem(match[3]!);
}

function diffArgs(choice: ChangeChoice): string[] {
  switch (choice.kind) {
    case 'workingTree':
      return ['diff', ...COMMON, END, 'HEAD', '--'];
    case 'staged':
      return ['diff', ...COMMON, '--cached', '--'];
    case 'lastCommit':
      return ['show', ...COMMON, '--no-show-signature', '--format=', END, 'HEAD', '--'];
    case 'range': {
      const range = (choice.range ?? '').trim();
      const problem = rangeProblem(range);
      if (problem) throw new Error(problem);
      return ['diff', ...COMMON, END, range, '--'];
    }
  }
}

/** The same command with `--stat` in front of the revision list. */
function statArgs(choice: ChangeChoice): string[] {
  const args = diffArgs(choice);
  return [args[0]!, STAT, ...args.slice(1)];
}

export interface ChangeTexts {
  ref: ChangeRef;
  diff: string;
  stat: string;
  /**
   * The folder's path inside its repository (`''` at the top, else `sub/dir/`): git names paths
   * from the top, and the engine leaves the folder's own `.loop/` writes out of the brief.
   */
  ownPrefix: string;
}

/** Where the diff editor finds each side of a file, per kind of change. */
async function describe(root: string, choice: ChangeChoice): Promise<ChangeRef> {
  switch (choice.kind) {
    case 'workingTree':
      return { kind: 'workingTree', label: CHANGE_LABELS().workingTree, base: 'HEAD', head: ':worktree' };
    case 'staged':
      return { kind: 'staged', label: CHANGE_LABELS().staged, base: 'HEAD', head: ':index' };
    case 'lastCommit': {
      const head = (await runGit(root, ['rev-parse', '--verify', END, 'HEAD'])).trim();
      const subject = (
        await runGit(root, ['log', '-1', '--no-show-signature', '--format=%h', END, head])
      ).trim();
      // A root commit has no parent: its "before" side is empty.
      const parent = await runGit(root, ['rev-parse', '--verify', '--quiet', END, `${head}^`]).then(
        (out) => out.trim(),
        () => '',
      );
      return { kind: 'lastCommit', label: l10n.t('Last commit {0}', subject), base: parent, head };
    }
    case 'range': {
      const range = (choice.range ?? '').trim();
      const [, from = '', dots = '..', to = ''] = RANGE.exec(range) ?? [];
      // A...B diffs from the merge base, so that is the left side.
      const base = dots === '...' ? (await runGit(root, ['merge-base', END, from, to])).trim() : from;
      return { kind: 'range', label: l10n.t('Commits {0}', range), base, head: to };
    }
  }
}

export async function readChange(root: string, choice: ChangeChoice): Promise<ChangeTexts> {
  const [diff, stat, ref, prefix] = await Promise.all([
    runGit(root, diffArgs(choice)),
    runGit(root, statArgs(choice)),
    describe(root, choice),
    runGit(root, ['rev-parse', '--show-prefix']),
  ]);
  return { ref, diff, stat, ownPrefix: prefix.trim() };
}
