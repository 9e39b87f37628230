// "Export packet": `.loop/briefs/<brief_id>.md` for a person or another agent to read, and
// `.json` with the engine's packet as `loop-ledger brief --json` prints it, so the judge can be
// a different context from the one that built the change.
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import type { PanelState } from '../../shared/protocol';
import { writeFileAtomic } from '../../store';
import { packetMarkdown } from './packetMarkdown';

export async function exportPacket(
  root: string,
  state: PanelState,
): Promise<{ markdown: string; json: string }> {
  const { packet } = state;
  if (!/^[0-9a-f]{16}$/.test(packet.brief_id)) throw new Error(`not a brief id: ${packet.brief_id}`);
  const folder = join(root, '.loop', 'briefs');
  await mkdir(folder, { recursive: true });
  const markdown = join(folder, `${packet.brief_id}.md`);
  const json = join(folder, `${packet.brief_id}.json`);
  // The store's atomic write: a unique temporary name, fsync, rename, cleanup on failure. A
  // reader never sees half a packet, and two exports at once never share a temporary file.
  // The asynchronous one: the fsyncs run off the extension host's thread.
  await writeFileAtomic(markdown, packetMarkdown(state.session, state.change, packet));
  await writeFileAtomic(json, JSON.stringify(packet, null, 2) + '\n');
  return { markdown, json };
}
