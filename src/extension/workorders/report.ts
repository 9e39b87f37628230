// The obs report as a markdown table, from the engine's report over the task's loop-obs.ndjson.
import { readObsLogText } from '../../app/workorders/read-async';
import { obsReport, parseObsLog } from '../../engine/workorders/obs';

export async function obsReportMarkdown(dir: string, taskName: string): Promise<string> {
  const log = await readObsLogText(dir);
  const parsed = parseObsLog(log);
  const r = obsReport(parsed.records, parsed.skipped, 2);
  const lines = [
    `# Work-order report — ${taskName}`,
    '',
    `${r.records} records over ${r.work_orders} work orders (${r.skipped_lines} unreadable lines skipped).`,
    '',
    '| work order | last disposition | attempts | records | rework | ever halted |',
    '| --- | --- | ---: | ---: | ---: | --- |',
    ...r.per_wo.map(
      (w) =>
        `| ${String(w.wo_id)} | ${w.last_disposition} | ${w.attempts} | ${w.records} | ${w.rework_count} | ${w.ever_halted ? 'yes' : 'no'} |`,
    ),
    '',
    '## Flagged',
    '',
    ...(r.flagged.length === 0
      ? ['none']
      : r.flagged.map(
          (f) =>
            `- **${String(f.wo_id)}** ${f.reason} (rework ${f.rework_count}, last ${f.last_disposition}${f.halt_reason ? `, halt ${String(f.halt_reason)}` : ''})`,
        )),
    '',
    '## Halt reasons',
    '',
    ...(Object.keys(r.halt_reasons).length === 0
      ? ['none']
      : Object.entries(r.halt_reasons).map(([k, v]) => `- ${k}: ${v}`)),
    '',
  ];
  return lines.join('\n');
}
