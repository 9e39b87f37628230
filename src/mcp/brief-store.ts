// The brief packets this server assembled. A packet is not a file (the ledger keeps only the
// pending brief's id), so the server keeps the newest ones in memory for the brief resource and
// the summary tool; a client that needs one after a restart assembles it again.
import type { BriefPacket } from '../engine/brief';

/** Enough for a session's review round trips; a packet can hold a 20 MB diff, so not many more. */
const KEPT = 16;

export interface StoredBrief {
  session: string;
  packet: BriefPacket;
}

export class BriefStore {
  private readonly packets = new Map<string, StoredBrief>();

  put(session: string, packet: BriefPacket): void {
    this.packets.delete(packet.brief_id);
    this.packets.set(packet.brief_id, { session, packet });
    while (this.packets.size > KEPT) this.packets.delete(this.packets.keys().next().value as string);
  }

  get(briefId: string): StoredBrief | undefined {
    return this.packets.get(briefId);
  }

  all(): StoredBrief[] {
    return [...this.packets.values()];
  }
}

export function briefUri(session: string, briefId: string): string {
  return `loop-ledger://brief/${session}/${encodeURIComponent(briefId)}`;
}

/** A packet in a few hundred tokens: what it covers, never the diff or the verification text. */
export function briefSummary(session: string, packet: BriefPacket, pending: boolean | null) {
  const paths = packet.scope.diff_paths;
  return {
    brief_id: packet.brief_id,
    session,
    pending,
    uri: briefUri(session, packet.brief_id),
    rubric: packet.rubric.map((d) => d.dimension),
    scope: packet.scope.provenance,
    diff_files: paths.length,
    files: paths.slice(0, 50),
    undeclared_files: packet.scope.undeclared_paths.slice(0, 50),
    diff_chars: packet.diff.length,
    verification_chars: packet.verification.length,
    verdicts: packet.verdicts,
  };
}
