// The messages between the overview and dashboard hosts (src/extension/overview/) and their
// webview (webview/overview/). As for the critic-brief panel, the host parses every message the
// webview sends with these schemas (a webview is a browser page: its messages are untrusted) and
// the webview imports this file with `import type` only.
import { z } from 'zod';
import type { DashboardRow } from '../engine/overview/dashboard';
import type { OverviewModel } from '../engine/overview/model';
import type { OverviewWordTable } from './overview-words';
import { requestIdSchema as requestId } from './request-id';

/** Larger than any honest message from the overview; a bigger one is dropped before parsing. */
export const MAX_OVERVIEW_MESSAGE_CHARS = 4 * 1024;

const iteration = z.number().int().min(1).max(Number.MAX_SAFE_INTEGER);

export const OverviewReady = z
  .object({ type: z.literal('ready'), buckets: z.number().int().min(8).max(2000).optional() })
  .strict();
export const ShowIteration = z.object({ type: z.literal('showIteration'), requestId, n: iteration }).strict();
export const OpenBrief = z.object({ type: z.literal('openBrief'), requestId, n: iteration }).strict();
export const OpenOverview = z
  .object({
    type: z.literal('openOverview'),
    requestId,
    root: z.string().min(1).max(4096),
    session: z.string().min(1).max(128),
  })
  .strict();

/** The checkpoint commands an overview offers on an iteration whose record has a checkpoint. */
export const CHECKPOINT_ACTIONS = ['compareWithPrevious', 'compareWithWorkspace', 'restore'] as const;
export type CheckpointActionName = (typeof CHECKPOINT_ACTIONS)[number];
export const CheckpointAction = z
  .object({ type: z.literal('checkpoint'), requestId, n: iteration, action: z.enum(CHECKPOINT_ACTIONS) })
  .strict();

export const FromOverview = z.discriminatedUnion('type', [
  OverviewReady,
  ShowIteration,
  OpenBrief,
  OpenOverview,
  CheckpointAction,
]);
export type FromOverview = z.infer<typeof FromOverview>;

/** One line of a record in words. */
export interface RecordLine {
  key: string;
  value: string | string[];
}

export type ToOverview =
  | { type: 'words'; words: OverviewWordTable }
  | { type: 'overview'; model: OverviewModel; keep: SavedOverview }
  | { type: 'problem'; session: string; reason: string; keep: SavedOverview }
  | {
      type: 'iteration';
      requestId: string;
      n: number;
      lines: RecordLine[];
      /** True when the record has a checkpoint and the workspace is trusted: its actions are offered. */
      checkpoint?: boolean;
    }
  | { type: 'dashboard'; rows: DashboardRow[] }
  | { type: 'rejected'; requestId?: string; reason: string };

/** What an overview keeps with setState to come back after a reload: which session, where. */
export const SavedOverview = z
  .object({ root: z.string().min(1).max(4096), session: z.string().min(1).max(128) })
  .strict();
export type SavedOverview = z.infer<typeof SavedOverview>;
