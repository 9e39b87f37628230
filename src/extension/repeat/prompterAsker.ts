// The repeat's questions as quick input: a pause is a quick pick that stays open (focus may move
// to the editor to look at the work), titled with the recommendation; dismissing it leaves the
// loop paused, resumable from the tree.
import * as l10n from '@vscode/l10n';
import type { Asker } from '../../app/repeat/types';
import type { ScopeChange } from '../../engine/repeat/answer';
import { OPTION_HELP } from '../../engine/repeat/questions';
import type { PendingQuestion, Recipe } from '../../engine/repeat/state';
import { BACK, type Prompter } from '../input';

/** "Current side (iterations 1 and 3): …" → the summary text after the colon. */
function side(question: PendingQuestion, label: string): string | undefined {
  const line = question.text.split('\n').find((l) => l.startsWith(label));
  return line?.slice(line.indexOf(': ') + 2);
}

export class PrompterAsker implements Asker {
  constructor(
    private readonly prompter: () => Prompter,
    private readonly say: (text: string) => void,
    /** Called as a question opens: the views re-read the session, which now waits for an answer. */
    private readonly onAsk: () => void = () => undefined,
  ) {}

  async ask(question: PendingQuestion): Promise<string | undefined> {
    this.onAsk();
    const current = side(question, 'Current side');
    const alternate = side(question, 'Alternate side');
    const detail: Record<string, string | undefined> = {
      stay: current && l10n.t('Current: {0}', current),
      'forward-escape': alternate && l10n.t('Alternate: {0}', alternate),
    };
    const answer = await this.prompter().pickOne({
      id: 'repeat.answer',
      title: l10n.t('Repeat Until Settled — {0}', question.recommendation),
      placeholder: question.text.split('\n')[0],
      ignoreFocusOut: true,
      items: question.options.map((option) => ({
        label: option,
        description: OPTION_HELP[option],
        ...(detail[option] ? { detail: detail[option] } : {}),
        value: option,
      })),
    });
    return answer === BACK ? undefined : answer;
  }

  async askScope(): Promise<ScopeChange | undefined> {
    const scope = await this.prompter().inputText({
      id: 'repeat.scope',
      title: l10n.t('Repeat Until Settled — change scope'),
      prompt: l10n.t('New scope globs, space-separated (empty keeps the current scope)'),
    });
    if (scope === undefined || scope === BACK) return undefined;
    const inner = await this.prompter().inputText({
      id: 'repeat.inner',
      title: l10n.t('Repeat Until Settled — change scope'),
      prompt: l10n.t('New inner command (empty keeps the current one)'),
    });
    if (inner === undefined || inner === BACK) return undefined;
    const globs = scope.split(/\s+/).filter((g) => g !== '');
    return { ...(globs.length ? { scope: globs } : {}), ...(inner.trim() ? { inner: inner.trim() } : {}) };
  }

  async pickRecipe(why: string): Promise<Recipe | undefined> {
    const answer = await this.prompter().pickOne<Recipe>({
      id: 'repeat.recipe',
      title: l10n.t('Repeat Until Settled — how should a change be seen?'),
      placeholder: why,
      items: [
        {
          label: 'git',
          description: l10n.t('HEAD, status, diff and untracked files of the repository'),
          value: 'git',
        },
        { label: 'fs', description: l10n.t('content hashes of the files under this folder'), value: 'fs' },
      ],
    });
    return answer === BACK ? undefined : answer;
  }

  tell(text: string): void {
    this.say(text);
  }
}
