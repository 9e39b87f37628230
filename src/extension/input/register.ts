import type { Prompter } from './prompter';
import { PrompterSlot } from './prompterSlot';
import { VscodePrompter } from './vscodePrompter';

/**
 * The one PrompterSlot of the extension, over the real quick input; `wrap` is the test entry's
 * forwarding Prompter in extension test mode, absent otherwise.
 */
export function createPrompterSlot(wrap?: (standard: Prompter) => Prompter): PrompterSlot {
  const standard = new VscodePrompter();
  return new PrompterSlot(wrap ? wrap(standard) : standard);
}
