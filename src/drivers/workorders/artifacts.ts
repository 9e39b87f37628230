// Artifact reads/writes the kernels and the loop share: the obs log append (the kernel's only
// write) and the critic files `<wo>.critic-*.json`.
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { sidecars } from '../../engine/workorders/ids';
import { objectOrEmpty } from '../../engine/workorders/jq';
import { obsRecord } from '../../engine/workorders/obs';
import { appendLine, isDirectory, listNames, readText } from './files';

export const OBS_LOG = 'loop-obs.ndjson';

/** Reads one work order's artifacts (read-only) and appends its record; returns the record. */
export function appendObs(
  dir: string,
  wo: string,
  disposition: string,
  now: string,
): Record<string, unknown> {
  const names = sidecars(wo);
  const record = obsRecord(wo, disposition, now, {
    run: objectOrEmpty(readText(join(dir, names.run))),
    review: objectOrEmpty(readText(join(dir, names.review))),
    critique: objectOrEmpty(readText(join(dir, names.critique))),
    haltMarker: existsSync(join(dir, names.halt)),
  });
  appendLine(dir, join(dir, OBS_LOG), JSON.stringify(record));
  return record;
}

export function criticFiles(dir: string, wo: string): { name: string; text: string }[] {
  if (!dir || !isDirectory(dir)) return [];
  return listNames(dir)
    .filter((name) => name.startsWith(`${wo}.critic-`) && name.endsWith('.json'))
    .map((name) => ({ name, text: readText(join(dir, name)) ?? '' }));
}
