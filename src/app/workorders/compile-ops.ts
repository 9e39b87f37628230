// The disk side of `wo compile`'s subcommands: a status transition written atomically, the
// dispatchability and frontmatter reads, the git-derived build handle, and the grounding checks
// that look at the code tree. The rules are the engine's.
import { dirname } from 'node:path';
import { assertDispatchable } from '../../engine/workorders/dispatch-gate';
import { driftGuard } from '../../engine/workorders/drift-guard';
import { readFrontmatter } from '../../engine/workorders/frontmatter-yaml';
import { lockfileSha } from '../../engine/workorders/lockfile-sha';
import { setStatus, type SetStatusPayload } from '../../engine/workorders/status';
import { readText, siblingsOf, writeTextAtomic } from '../../drivers/workorders/files';
import { driftProbe, lockfileIo } from '../../drivers/workorders/grounding-probe';
import { collectHandle } from '../../drivers/workorders/handle';

export { collectHandle };

/** Moves a work order to `status` if the transition is legal; a failed write changes nothing. */
export function setStatusFile(file: string, status: string): { exitCode: number; payload: SetStatusPayload } {
  const result = setStatus(file, readText(file), status, siblingsOf(dirname(file)));
  if (result.write !== undefined) {
    try {
      writeTextAtomic(file, result.write);
    } catch {
      return {
        exitCode: 1,
        payload: { ...result.payload, ok: false, changed: false, reason: 'write_failed' },
      };
    }
  }
  return { exitCode: result.exitCode, payload: result.payload };
}

export function dispatchableFile(file: string): ReturnType<typeof assertDispatchable> {
  return assertDispatchable(readText(file));
}

/** The parsed frontmatter, or `{__error__}` naming why there is none (`file_missing`, a parse error). */
export function frontmatterJson(file: string): Record<string, unknown> {
  const text = readText(file);
  if (text === undefined) return { __error__: 'file_missing' };
  const fm = readFrontmatter(text);
  return fm.ok ? fm.data : { __error__: fm.error };
}

export function driftGuardOnDisk(input: unknown): ReturnType<typeof driftGuard> {
  return driftGuard(input, driftProbe);
}

export function lockfileShaOnDisk(input: unknown): ReturnType<typeof lockfileSha> {
  return lockfileSha(input, lockfileIo);
}
