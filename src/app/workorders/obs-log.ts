// `wo obs-append` and `wo obs-report`'s operations: the observability log beside the work
// orders, appended one record at a time and read back as a report.
import { join } from 'node:path';
import { obsRecord, obsReport, parseObsLog } from '../../engine/workorders/obs';
import { appendObs, OBS_LOG } from '../../drivers/workorders/artifacts';
import { readText } from '../../drivers/workorders/files';
import { OutsideRootError } from '../../store/confine';

/** The log's path in a work-orders folder. */
export function obsLogPath(dir: string): string {
  return join(dir, OBS_LOG);
}

/** The record of a call that could not read the work order's files (bad arguments, failed append). */
export function emptyObsRecord(wo: string, disposition: string, now: string): Record<string, unknown> {
  return obsRecord(wo, disposition, now, { run: {}, review: {}, critique: {}, haltMarker: false });
}

export type ObsAppendResult =
  | { kind: 'appended'; record: Record<string, unknown> }
  /** The append failed: the record is the empty one, nothing was written. */
  | { kind: 'failed'; record: Record<string, unknown> }
  /** The log is a link, a FIFO or leads out of the folder: refused, nothing written. */
  | { kind: 'refused'; message: string };

export function appendObsRecord(dir: string, wo: string, disposition: string, now: string): ObsAppendResult {
  try {
    return { kind: 'appended', record: appendObs(dir, wo, disposition, now) };
  } catch (error) {
    if (error instanceof OutsideRootError) return { kind: 'refused', message: error.message };
    return { kind: 'failed', record: emptyObsRecord(wo, disposition, now) };
  }
}

export function obsLogReport(dir: string, reworkThreshold: number): ReturnType<typeof obsReport> {
  const log = parseObsLog(readText(obsLogPath(dir)));
  return obsReport(log.records, log.skipped, reworkThreshold);
}
