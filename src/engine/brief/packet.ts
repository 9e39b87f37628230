// The critic packet: everything a reviewer who did not build the change needs, and nothing
// the builder wrote about it. The instructions travel inside the packet so the builder's
// framing never becomes the critic's prompt.
import type { ChunkedText } from '../chunked-text';
import { CRITIC_VERDICTS } from '../types';
import { leftOutLine } from './own-writes';
import type { CriticVerdict, RubricDimension } from '../types';

/** What the packet says about how complete its diff is known to be. */
export interface BriefScope {
  /** `verified` when a change scope was given and the diff covers it; else `unverified`. */
  provenance: 'verified' | 'unverified';
  declared_paths: string[] | null;
  diff_paths: string[];
  undeclared_paths: string[];
}

/**
 * A diff's text: a string, or (for a diff the CLI kept as bytes) a ChunkedText that prints and
 * hashes exactly as that string would.
 */
export type DiffText = string | ChunkedText;

/** The `brief` payload: exactly these eight keys. */
export interface BriefPacket<Diff extends DiffText = string> {
  brief_id: string;
  rubric: RubricDimension[];
  baseline: Record<string, number>;
  diff: Diff;
  verification: string;
  scope: BriefScope;
  verdicts: CriticVerdict[];
  asks: string[];
}

/** What the critic is asked to do, in the order it should do it. */
export const BRIEF_ASKS: readonly string[] = [
  'Judge the diff against the rubric and its baseline numbers; the builder’s own account of the change is not evidence.',
  'Compare the state before the change with the state after it — an opinion about the result alone is not a comparison.',
  'Point out every regression, and every claim that the verification output does not back up.',
  'Answer with exactly one verdict from the list, together with the one next improvement that would be worth most.',
  'Cite the evidence — diff lines, verification output, measurements — that your verdict rests on.',
  'Start with the scope block: when its provenance is `unverified`, nothing shows this diff is the entire change, so judge only what the diff contains.',
];

export interface PacketParts<Diff extends DiffText = string> {
  briefId: string;
  rubric: RubricDimension[];
  baseline: Record<string, number>;
  diff: Diff;
  verification: string;
  scope: BriefScope;
  /** Loop Ledger's own writes left out of the diff and the scope check (one more line in `asks`). */
  leftOut?: readonly string[];
}

export function assemblePacket<Diff extends DiffText>(parts: PacketParts<Diff>): BriefPacket<Diff> {
  return {
    brief_id: parts.briefId,
    rubric: parts.rubric,
    baseline: parts.baseline,
    diff: parts.diff,
    verification: parts.verification,
    scope: parts.scope,
    verdicts: [...CRITIC_VERDICTS],
    asks: [...BRIEF_ASKS, ...leftOutAsk(parts.leftOut ?? [])],
  };
}

function leftOutAsk(leftOut: readonly string[]): string[] {
  const line = leftOutLine(leftOut);
  return line === null ? [] : [line];
}
