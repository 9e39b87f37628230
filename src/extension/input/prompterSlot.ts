import type { Prompter } from './prompter';

/**
 * Holds the Prompter every command asks through (the real quick input). Commands read `current`
 * at the moment they ask. The integration tests' entry (test/hooks/testHooks.ts, loaded only in
 * extension test mode) hands in a forwarding Prompter; nothing here can swap it afterwards.
 */
export class PrompterSlot {
  constructor(private readonly prompter: Prompter) {}

  get current(): Prompter {
    return this.prompter;
  }
}
