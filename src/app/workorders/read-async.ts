// The work-order files the window shows, read off the extension host's thread with the same
// rules as the CLI's reads: a link to a device or a FIFO, or a file over the cap, reads as absent.
import { readTextAsync } from '../../drivers/workorders/files';
import { obsLogPath } from './obs-log';

/** A work-order file's text (a work order, a sidecar, the kill switch), or undefined if absent. */
export async function readWorkOrderText(path: string): Promise<string | undefined> {
  try {
    return await readTextAsync(path);
  } catch {
    return undefined;
  }
}

/** The text of the observability log in a work-orders folder, or undefined if absent. */
export function readObsLogText(dir: string): Promise<string | undefined> {
  return readWorkOrderText(obsLogPath(dir));
}
