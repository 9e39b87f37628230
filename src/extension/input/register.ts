import { PrompterSlot } from './prompterSlot';
import { VscodePrompter } from './vscodePrompter';

/**
 * The one PrompterSlot of the extension, over the real quick input. `activate` returns it as
 * `api.prompter` so integration tests can `api.prompter.use(new ScriptedPrompter([...]))`.
 */
export function createPrompterSlot(): PrompterSlot {
  return new PrompterSlot(new VscodePrompter());
}
