// `loop-ledger wo obs-append <dir> <wo> --disposition D` and `wo obs-report <dir> [--format
// json|text] [--rework-threshold N]` — the observability writer (append-only) and reader.
import { join } from 'node:path';
import {
  normaliseDisposition,
  obsLine,
  obsRecord,
  obsReport,
  obsReportLine,
  obsReportText,
  parseObsLog,
} from '../../../engine/workorders/obs';
import { appendObs, OBS_LOG } from '../../../drivers/workorders/artifacts';
import { isDirectory, readText } from '../../../drivers/workorders/files';
import { OutsideRootError } from '../../../store/confine';
import { printLine } from '../../output';
import { err, nowIso, out, outPretty, parseFlags } from './io';

export function appendMain(argv: string[]): number {
  const flags = parseFlags(argv, ['--disposition']);
  const [dir = '', wo = ''] = flags.positionals;
  const disposition = normaliseDisposition(flags.values.get('--disposition'));
  const now = nowIso();
  const usage =
    dir === ''
      ? 'missing_work_orders_dir'
      : !isDirectory(dir)
        ? 'work_orders_dir_missing'
        : wo === ''
          ? 'missing_wo_id'
          : '';
  if (usage) {
    const record = obsRecord(wo, disposition, now, { run: {}, review: {}, critique: {}, haltMarker: false });
    out(record);
    err(obsLine(record));
    err(`wo-obs usage_error=${usage}`);
    return 2;
  }
  let record: Record<string, unknown>;
  try {
    record = appendObs(dir, wo, disposition, now);
  } catch (error) {
    // A log that is a link, a FIFO or leads out of the folder: refused, nothing written.
    if (error instanceof OutsideRootError) {
      err(`wo-obs refused: ${error.message}`);
      return 2;
    }
    record = obsRecord(wo, disposition, now, { run: {}, review: {}, critique: {}, haltMarker: false });
    err(`wo-obs append_failed wo=${wo} log=${join(dir, OBS_LOG)}`);
  }
  out(record);
  err(obsLine(record));
  return 0;
}

export function reportMain(argv: string[]): number {
  const flags = parseFlags(argv, ['--format', '--rework-threshold']);
  const dir = flags.positionals[0] ?? '';
  const format = flags.values.get('--format') === 'text' ? 'text' : 'json';
  const thresholdText = flags.values.get('--rework-threshold') ?? '2';
  const threshold = /^[0-9]+$/.test(thresholdText) ? Number(thresholdText) : 2;
  const usage = dir === '' ? 'missing_work_orders_dir' : !isDirectory(dir) ? 'work_orders_dir_missing' : '';
  if (usage) {
    out({ schema_version: '1.0', error: usage });
    err(`wo-obs-report error=${usage}`);
    return 2;
  }
  const log = parseObsLog(readText(join(dir, OBS_LOG)));
  const report = obsReport(log.records, log.skipped, threshold);
  if (format === 'text') printLine(obsReportText(report));
  else outPretty(report);
  err(obsReportLine(report));
  return 0;
}
