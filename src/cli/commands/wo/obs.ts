// `loop-ledger wo obs-append <dir> <wo> --disposition D` and `wo obs-report <dir> [--format
// json|text] [--rework-threshold N]` — the observability writer (append-only) and reader.
import { normaliseDisposition, obsLine, obsReportLine, obsReportText } from '../../../engine/workorders/obs';
import { isDirectory } from '../../../app/workorders/folders';
import { appendObsRecord, emptyObsRecord, obsLogPath, obsLogReport } from '../../../app/workorders/obs-log';
import { printLine } from '../../output';
import { err, nowIso, out, outPretty, parseKernelFlags } from './io';

export function appendMain(argv: string[]): number {
  const flags = parseKernelFlags(argv, ['--disposition']);
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
    const record = emptyObsRecord(wo, disposition, now);
    out(record);
    err(obsLine(record));
    err(`wo-obs usage_error=${usage}`);
    return 2;
  }
  const result = appendObsRecord(dir, wo, disposition, now);
  if (result.kind === 'refused') {
    err(`wo-obs refused: ${result.message}`);
    return 2;
  }
  const record = result.record;
  if (result.kind === 'failed') err(`wo-obs append_failed wo=${wo} log=${obsLogPath(dir)}`);
  out(record);
  err(obsLine(record));
  return 0;
}

export function reportMain(argv: string[]): number {
  const flags = parseKernelFlags(argv, ['--format', '--rework-threshold']);
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
  const report = obsLogReport(dir, threshold);
  if (format === 'text') printLine(obsReportText(report));
  else outPretty(report);
  err(obsReportLine(report));
  return 0;
}
