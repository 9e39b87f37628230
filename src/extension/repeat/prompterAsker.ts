// The repeat's questions as quick input: a pause is a quick pick that stays open (focus may move
// to the editor to look at the work), titled with the recommendation; dismissing it leaves the
// loop paused, resumable from the tree.
import type { Asker } from '../../app/repeat-types';
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
  ) {}

  async ask(question: PendingQuestion): Promise<string | undefined> {
    const current = side(question, 'Current side');
    const alternate = side(question, 'Alternate side');
    const detail: Record<string, string | undefined> = {
      stay: current && `Current: ${current}`,
      'forward-escape': alternate && `Alternate: ${alternate}`,
    };
    const answer = await this.prompter().pickOne({
      id: 'repeat.answer',
      title: `Repeat Until Settled — ${question.recommendation}`,
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
      title: 'Repeat Until Settled — change scope',
      prompt: 'New scope globs, space-separated (empty keeps the current scope)',
    });
    if (scope === undefined || scope === BACK) return undefined;
    const inner = await this.prompter().inputText({
      id: 'repeat.inner',
      title: 'Repeat Until Settled — change scope',
      prompt: 'New inner command (empty keeps the current one)',
    });
    if (inner === undefined || inner === BACK) return undefined;
    const globs = scope.split(/\s+/).filter((g) => g !== '');
    return { ...(globs.length ? { scope: globs } : {}), ...(inner.trim() ? { inner: inner.trim() } : {}) };
  }

  async pickRecipe(why: string): Promise<Recipe | undefined> {
    const answer = await this.prompter().pickOne<Recipe>({
      id: 'repeat.recipe',
      title: 'Repeat Until Settled — how should a change be seen?',
      placeholder: why,
      items: [
        {
          label: 'git',
          description: 'HEAD, status, diff and untracked files of the repository',
          value: 'git',
        },
        { label: 'fs', description: 'content hashes of the files under this folder', value: 'fs' },
      ],
    });
    return answer === BACK ? undefined : answer;
  }

  tell(text: string): void {
    this.say(text);
  }
}
