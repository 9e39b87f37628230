// Messages the receipt viewer's page may send to the extension host. The host parses every one
// with these schemas (and then checks the path is one the receipt names) before acting.
import { z } from 'zod';

export const ReceiptFromWebview = z.discriminatedUnion('type', [
  /** Open a run file (a check log, the diff, a reviewer result) in an editor. */
  z.object({ type: z.literal('openFile'), path: z.string().min(1).max(4096) }),
  /** Open one changed file in the diff editor, HEAD against the work tree. */
  z.object({ type: z.literal('openDiff'), path: z.string().min(1).max(4096) }),
  /** Re-read the receipt from disk. */
  z.object({ type: z.literal('refresh') }),
]);
export type ReceiptFromWebview = z.infer<typeof ReceiptFromWebview>;
