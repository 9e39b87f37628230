// The messages between the critic-brief panel host (src/extension/brief/) and its webview
// (webview/). Each direction is one discriminated union on `type`. The host parses every
// message the webview sends with these schemas, because a webview is a browser page and its
// messages are untrusted input; the webview imports this file with `import type` only, so no zod
// code ends up in its bundle.
import { z } from 'zod';
import { CRITIC_VERDICTS, DECISIONS, OUTCOMES, type RubricDimension } from '../engine/types';
import { BRIEF_WORDS, MAX_BRIEF_WORD_CHARS, type BriefWord } from './brief-words';
import { requestIdSchema as requestId } from './request-id';

/** Larger than any honest message from the panel; a bigger one is dropped before it is parsed. */
export const MAX_INCOMING_MESSAGE_CHARS = 64 * 1024;

const text = (max: number) => z.string().max(max);
const briefId = z.string().regex(/^[0-9a-f]{16}$/, 'must be 16 hex digits');

// The engine's word lists, defined once in engine/types.ts (plain constants, no Node code, so the
// webview bundle imports them from there too).
export const CRITIC_VERDICT_WORDS = CRITIC_VERDICTS;
export const OUTCOME_WORDS = OUTCOMES;
export const DECISION_WORDS = DECISIONS;

/** The kinds of change the panel can be assembled from; git computes each one. */
export const CHANGE_KINDS = ['workingTree', 'staged', 'lastCommit', 'range'] as const;
export type ChangeKind = (typeof CHANGE_KINDS)[number];

// ---------------------------------------------------------------------------------------------
// Webview → host

export const ReadyMessage = z.object({ type: z.literal('ready') }).strict();

export const OpenDiffMessage = z
  .object({ type: z.literal('openDiff'), requestId, path: text(4096).min(1) })
  .strict();

export const VerdictForm = z
  .object({
    verdict: z.enum(CRITIC_VERDICT_WORDS),
    criticNext: text(4000),
    evidencePaths: z.array(text(1024)).max(64),
    decision: z.enum(DECISION_WORDS).nullable(),
    outcome: z.enum(OUTCOME_WORDS),
    actions: z.array(text(256)).max(64),
    /** `DIM=NUMBER`, as the CLI's `--measure`; the engine reads and checks them. */
    measurements: z.array(text(512)).max(64),
    note: text(4000).nullable(),
    /** Required by the engine when the outcome is `escalate`. */
    blocker: text(4000).nullable(),
    evidence: text(4000).nullable(),
    recommendedNext: text(4000).nullable(),
  })
  .strict();
export type VerdictForm = z.infer<typeof VerdictForm>;

export const SubmitVerdictMessage = z
  .object({ type: z.literal('submitVerdict'), requestId, briefId, form: VerdictForm })
  .strict();

export const ExportPacketMessage = z.object({ type: z.literal('exportPacket'), requestId, briefId }).strict();

export const FromWebview = z.discriminatedUnion('type', [
  ReadyMessage,
  OpenDiffMessage,
  SubmitVerdictMessage,
  ExportPacketMessage,
]);
export type FromWebview = z.infer<typeof FromWebview>;

// ---------------------------------------------------------------------------------------------
// Host → webview (the host builds these; they are typed, not parsed)

/** A rubric dimension as the contract declares it (the engine's type; type-only, no runtime import). */
export type RubricRow = RubricDimension;

/** The engine's packet, key for key (src/engine/brief/packet.ts). */
export interface PacketData {
  brief_id: string;
  rubric: RubricRow[];
  baseline: Record<string, number>;
  diff: string;
  verification: string;
  scope: {
    provenance: 'verified' | 'unverified';
    declared_paths: string[] | null;
    diff_paths: string[];
    undeclared_paths: string[];
  };
  verdicts: string[];
  asks: string[];
}

/** Which change the packet was assembled from, so "open in diff editor" can find both sides. */
export interface ChangeRef {
  kind: ChangeKind;
  /** Shown to the critic, e.g. "Working tree vs HEAD" or "a1b2c3..d4e5f6". */
  label: string;
  /** The "before" revision for the diff editor (`HEAD`, `HEAD~1`, the range start…). */
  base: string;
  /** The "after" side: a revision, `:index` for the staged tree, or `:worktree`. */
  head: string;
}

export interface Finding {
  message: string;
  code?: string;
}

/** What an iteration record looks like to the panel (a subset it shows after recording). */
export type RecordView = Record<string, unknown> & { n: number; critic_verdict: string | null };

/**
 * Everything the panel shows. The webview does NOT keep it: it keeps only a SavedPanel (below),
 * and the host re-reads the packet from `.loop/briefs/<id>.panel.json` when VS Code restores it.
 */
export interface PanelState {
  session: string;
  change: ChangeRef;
  packet: PacketData;
  /** Set once a verdict has been recorded against this brief (or the ledger moved on). */
  spent: { reason: string; record?: RecordView } | null;
  /** False in an untrusted workspace: the panel is read-only there. */
  canRecord: boolean;
}

/**
 * The webview's words in the display language (src/shared/brief-words.ts): known keys only, each
 * a non-blank string of bounded length. The host checks the table it sends with this schema,
 * since its values come from a translation bundle the extension does not write.
 */
export const BriefWordTable = z
  .object(
    Object.fromEntries(
      BRIEF_WORDS.map((key) => [key, z.string().trim().min(1).max(MAX_BRIEF_WORD_CHARS).optional()]),
    ) as Record<BriefWord, z.ZodOptional<z.ZodString>>,
  )
  .strict();
export type BriefWordTable = Partial<Record<BriefWord, string>>;

export type ToWebview =
  | { type: 'show'; state: PanelState; keep: SavedPanel; words: BriefWordTable }
  | {
      type: 'verdictResult';
      requestId: string;
      exitCode: number;
      meaning: string;
      findings: Finding[];
      record?: RecordView;
    }
  | { type: 'exportResult'; requestId: string; ok: boolean; message: string }
  | { type: 'openDiffResult'; requestId: string; ok: boolean; message: string }
  | { type: 'rejected'; requestId?: string; reason: string };

/**
 * What the webview keeps with setState to survive a reload: which brief, of which session, in
 * which workspace folder. Only that: a packet can be as large as the input cap, and webview state
 * is stored by the workbench and handed back as untrusted input. The host checks it with this
 * schema, then checks the root against the workspace folders and the session against the store.
 */
export const SavedPanel = z
  .object({
    root: z.string().min(1).max(4096),
    session: z.string().min(1).max(128),
    briefId,
  })
  .strict();
export type SavedPanel = z.infer<typeof SavedPanel>;

/**
 * The file a panel's packet is kept in (`.loop/briefs/<brief_id>.panel.json`), written when the
 * panel opens and re-read when it is restored; checked before it is trusted.
 */
export const KeptPanel = z
  .object({
    session: z.string().max(128),
    change: z
      .object({
        kind: z.enum(CHANGE_KINDS),
        label: z.string().max(512),
        base: z.string().max(256),
        head: z.string().max(256),
      })
      .strict(),
    packet: z
      .object({
        brief_id: briefId,
        rubric: z.array(z.record(z.string(), z.unknown())),
        baseline: z.record(z.string(), z.number()),
        diff: z.string(),
        verification: z.string(),
        scope: z.object({
          provenance: z.enum(['verified', 'unverified']),
          declared_paths: z.array(z.string()).nullable(),
          diff_paths: z.array(z.string()),
          undeclared_paths: z.array(z.string()),
        }),
        verdicts: z.array(z.string()),
        asks: z.array(z.string()),
      })
      .passthrough(),
  })
  .passthrough();
