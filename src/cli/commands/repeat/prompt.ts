// Asking a person at a terminal (repeat's pauses). Questions go to stderr so stdout stays the
// report; end of input (Ctrl-D) is "no answer": the loop stays paused and the question is saved.
import { createInterface, type Interface } from 'node:readline';
import type { PendingQuestion, Recipe } from '../../../engine/repeat/state';
import type { Asker } from '../../../app/repeat/types';
import type { ScopeChange } from '../../../engine/repeat/answer';

export class TerminalAsker implements Asker {
  private readonly rl: Interface;
  private closed = false;
  private readonly lines: string[] = [];
  private waiting: ((line: string | undefined) => void) | null = null;

  constructor() {
    this.rl = createInterface({ input: process.stdin, output: process.stderr, terminal: true });
    this.rl.on('line', (line) => {
      if (this.waiting) {
        const resolve = this.waiting;
        this.waiting = null;
        resolve(line);
      } else this.lines.push(line);
    });
    this.rl.on('close', () => {
      this.closed = true;
      this.waiting?.(undefined);
      this.waiting = null;
    });
  }

  private line(prompt: string): Promise<string | undefined> {
    process.stderr.write(prompt);
    const ready = this.lines.shift();
    if (ready !== undefined) return Promise.resolve(ready);
    if (this.closed) return Promise.resolve(undefined);
    return new Promise((resolve) => (this.waiting = resolve));
  }

  async ask(question: PendingQuestion): Promise<string | undefined> {
    process.stderr.write(`\n${question.text}\n`);
    return this.line(`answer (${question.options.join(' / ')}): `);
  }

  async askScope(): Promise<ScopeChange | undefined> {
    const scope = await this.line('new --scope globs, space-separated (empty keeps the current): ');
    if (scope === undefined) return undefined;
    const inner = await this.line('new inner command (empty keeps the current): ');
    if (inner === undefined) return undefined;
    const globs = scope.split(/\s+/).filter((g) => g !== '');
    return { ...(globs.length ? { scope: globs } : {}), ...(inner.trim() ? { inner: inner.trim() } : {}) };
  }

  async pickRecipe(why: string): Promise<Recipe | undefined> {
    for (;;) {
      const reply = await this.line(`${why}.\nWhich state-capture recipe? (git / fs): `);
      if (reply === undefined) return undefined;
      const word = reply.trim().toLowerCase();
      if (word === 'git' || word === 'fs') return word;
      this.tell(`"${reply.trim()}" is not git or fs`);
    }
  }

  tell(text: string): void {
    process.stderr.write(`${text}\n`);
  }

  dispose(): void {
    this.rl.close();
  }
}
