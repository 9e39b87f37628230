// Human-side verbs: `wo halt` (marker first, then the sidecar), `wo clear` (a human lifts a HALT;
// the marker is kept as `wo-NN.HALT.cleared-<time>`), `wo kill` / `wo unkill` (the task's kill
// switch `<task>/.kill`, checked by `wo run` at every work-order boundary).
import { existsSync, renameSync, rmSync } from 'node:fs';
import { OutsideRootError, writeFileConfined } from '../../../store/confine';
import { join } from 'node:path';
import { sidecars } from '../../../engine/workorders/ids';
import { halt as haltSidecar, sidecarObject } from '../../../engine/workorders/run-state';
import {
  confineWoWrite,
  isDirectory,
  readText,
  writeHaltMarker,
  writeJsonAtomic,
} from '../../../drivers/workorders/files';
import { err, nowIso, out, parseFlags } from './io';

export function haltMain(argv: string[]): number {
  const flags = parseFlags(argv, ['--reason']);
  const [dir = '', wo = ''] = flags.positionals;
  const reason = flags.values.get('--reason') ?? '';
  if (!isDirectory(dir) || !/^wo-[0-9]+$/.test(wo) || reason === '') {
    err('loop-ledger wo halt: usage: wo halt <work-orders-dir> <wo-NN> --reason <reason>');
    return 2;
  }
  const at = nowIso();
  const marker = writeHaltMarker(dir, wo, reason, at);
  const runPath = join(dir, sidecars(wo).run);
  const result = haltSidecar(wo, readText(runPath), reason);
  if (result.write) writeJsonAtomic(runPath, result.write);
  out({ ok: true, wo_id: wo, reason, at, marker, sidecar_halted: result.write !== undefined });
  err(`wo-halt wo=${wo} reason=${reason} sidecar=${result.write ? 'halted' : 'absent'}`);
  return 0;
}

/** Lifts a HALT: keeps the marker under a cleared name and un-halts the sidecar. */
export function clearHalt(
  dir: string,
  wo: string,
  at: string,
  resetAttempts: boolean,
): { cleared: string | null; sidecar: boolean } {
  const names = sidecars(wo);
  const markerPath = join(dir, names.halt);
  confineWoWrite(markerPath); // before the marker is renamed, not after
  let cleared: string | null = null;
  if (existsSync(markerPath)) {
    cleared = `${markerPath}.cleared-${at.replace(/:/g, '')}`;
    renameSync(markerPath, cleared);
  }
  const runPath = join(dir, names.run);
  const text = readText(runPath);
  let sidecar = false;
  if (text !== undefined) {
    const run = sidecarObject(text);
    if (run.halted === true || resetAttempts) {
      const next: Record<string, unknown> = { ...run, halted: false, halt_reason: null, cleared_at: at };
      if (resetAttempts) next.attempts = 0;
      writeJsonAtomic(runPath, next);
      sidecar = true;
    }
  }
  return { cleared, sidecar };
}

export function clearMain(argv: string[]): number {
  const flags = parseFlags(argv, [], ['--reset-attempts']);
  const [dir = '', wo = ''] = flags.positionals;
  if (!isDirectory(dir) || !/^wo-[0-9]+$/.test(wo)) {
    err('loop-ledger wo clear: usage: wo clear <work-orders-dir> <wo-NN> [--reset-attempts]');
    return 2;
  }
  const names = sidecars(wo);
  if (!existsSync(join(dir, names.halt)) && sidecarObject(readText(join(dir, names.run))).halted !== true) {
    out({ ok: false, wo_id: wo, reason: 'not_halted' });
    err(`wo-clear wo=${wo} not_halted`);
    return 1;
  }
  const at = nowIso();
  const result = clearHalt(dir, wo, at, flags.switches.has('--reset-attempts'));
  out({ ok: true, wo_id: wo, cleared_marker: result.cleared, sidecar_unhalted: result.sidecar, at });
  err(
    `wo-clear wo=${wo} marker=${result.cleared ? 'kept' : 'none'} sidecar=${result.sidecar ? 'unhalted' : 'unchanged'}`,
  );
  return 0;
}

export function killMain(argv: string[], on: boolean): number {
  const task = argv[0] ?? '';
  if (!isDirectory(task)) {
    err(`loop-ledger wo ${on ? 'kill' : 'unkill'}: usage: wo ${on ? 'kill' : 'unkill'} <task-folder>`);
    return 2;
  }
  const path = join(task, '.kill');
  if (on) {
    try {
      writeFileConfined(task, path, `${nowIso()}\n`);
    } catch (error) {
      if (!(error instanceof OutsideRootError)) throw error;
      err(`loop-ledger wo kill: ${error.message}`);
      return 2;
    }
  } else rmSync(path, { force: true });
  out({ ok: true, kill_switch: on, path });
  return 0;
}
