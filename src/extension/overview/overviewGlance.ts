// The first paint of a long ledger's overview, before the full read is done: the file's head and
// tail are read (a few hundred kilobytes, asynchronously, opened as the store opens a ledger: no
// symlink followed, no FIFO waited on, only a regular file within the size cap), the newest
// records charted, and the header's counts and spend taken from the records' stored summary.
// The result says it is partial; the full read replaces it, or replaces it with the reason the
// ledger cannot be read. Small enough to run on the extension host (one parse of at most
// TAIL_BYTES of records). No `vscode` here: the benchmark and the unit tests drive it.
import { buildOverview, type OverviewModel, type OverviewPartial } from '../../engine/overview/model';
import { status } from '../../engine/status';
import { ledgerPath, legacyLedgerPath, sessionIdProblem } from '../../store';
import { runReadAsync } from '../../store/read-async';
import { ledgerPiecesSteps, type PiecesAsk } from '../../store/read-steps';
import { glanceOf, type Glance } from './glanceText';
import type { PreparedOverview } from './overviewPrepare';

/** Files smaller than this are read whole at once (about 2,000 iterations: well under a second). */
export const GLANCE_MIN_BYTES = 2 * 1024 * 1024;
/** The newest records' bytes read for the glance (about 500 iterations of a typical ledger). */
export const TAIL_BYTES = 512 * 1024;
/**
 * The head is read in steps of 64 KiB until the records begin, never past 1 MiB (a contract this
 * long is the full read's to show), with a few bytes past the mark: the glance checks what
 * follows it (`[`, newline, indent).
 */
const PIECES: PiecesAsk = {
  head: { until: Buffer.from('\n  "iterations": [', 'utf8'), beyond: 8, step: 64 * 1024, max: 1024 * 1024 },
  tail: TAIL_BYTES,
  minSize: GLANCE_MIN_BYTES,
};

/** The glance's model, or null when there is none to show (then the full read is awaited). */
export async function glanceOverview(
  root: string,
  session: string,
  buckets: number,
): Promise<Extract<PreparedOverview, { kind: 'model' }> | null> {
  if (sessionIdProblem(session) !== null) return null;
  for (const path of [ledgerPath(root, session), legacyLedgerPath(root, session)]) {
    const pieces = await runReadAsync(ledgerPiecesSteps(path, PIECES));
    if (pieces === 'absent') continue;
    if (pieces === null) return null;
    const glance = glanceOf(pieces.head, pieces.tail, pieces.size, session);
    return glance === null ? null : prepareGlance(glance, buckets);
  }
  return null;
}

/** The model of a glance: charts of the newest records, the header's counts from the summary. */
export function prepareGlance(
  glance: Glance,
  buckets: number,
): Extract<PreparedOverview, { kind: 'model' }> | null {
  const { ledger, summary } = glance;
  try {
    const payload = summary ? status(ledger, summary).payload : null;
    const model = buildOverview(ledger, payload, buckets);
    const records = ledger.iterations;
    const numbers = new Float64Array(records.length);
    for (let i = 0; i < records.length; i += 1) numbers[i] = records[i]!.n;
    const partial: OverviewPartial = {
      shown: records.length,
      firstShown: records[0]!.n,
      lastShown: records[records.length - 1]!.n,
      total: summary ? summary.count : null,
    };
    const whole: OverviewModel =
      payload === null
        ? { ...model, partial }
        : {
            ...model,
            partial,
            iterations: payload.iterations,
            epochIterations: payload.limits.iterations.spent,
            lastTimestamp: payload.last_timestamp ?? model.lastTimestamp,
            spend: model.spend.map((line) => {
              if (line.key === 'iterations') return { ...line, spent: payload.limits.iterations.spent };
              if (payload.budget) return line; // the engineering budget comes from the status itself
              // Rounded as the complete model rounds it.
              if (line.key === 'usd')
                return { ...line, spent: Math.round(payload.spend.cost_usd * 1e6) / 1e6 };
              if (line.key === 'tokens')
                return { ...line, spent: payload.spend.tokens_in + payload.spend.tokens_out };
              return line;
            }),
          };
    return { kind: 'model', model: whole, numbers };
  } catch {
    return null; // a header the engine cannot read: the full read says why
  }
}
