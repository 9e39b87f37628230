// Human-side verbs: `wo halt` (marker first, then the sidecar), `wo clear` (a human lifts a HALT;
// the marker is kept as `wo-NN.HALT.cleared-<time>`), `wo kill` / `wo unkill` (the task's kill
// switch, checked by `wo run` at every work-order boundary). The work is the app's operations.
import { clearWorkOrderHalt, haltWorkOrder, isDirectory, setKillSwitch } from '../../../app/workorders/admin';
import { OutsideRootError } from '../../../store/confine';
import { err, nowIso, out, parseKernelFlags } from './io';

export function haltMain(argv: string[]): number {
  const flags = parseKernelFlags(argv, ['--reason']);
  const [dir = '', wo = ''] = flags.positionals;
  const reason = flags.values.get('--reason') ?? '';
  if (!isDirectory(dir) || !/^wo-[0-9]+$/.test(wo) || reason === '') {
    err('loop-ledger wo halt: usage: wo halt <work-orders-dir> <wo-NN> --reason <reason>');
    return 2;
  }
  const at = nowIso();
  const result = haltWorkOrder(dir, wo, reason, at);
  out({ ok: true, wo_id: wo, reason, at, marker: result.marker, sidecar_halted: result.sidecarHalted });
  err(`wo-halt wo=${wo} reason=${reason} sidecar=${result.sidecarHalted ? 'halted' : 'absent'}`);
  return 0;
}

export function clearMain(argv: string[]): number {
  const flags = parseKernelFlags(argv, [], ['--reset-attempts']);
  const [dir = '', wo = ''] = flags.positionals;
  if (!isDirectory(dir) || !/^wo-[0-9]+$/.test(wo)) {
    err('loop-ledger wo clear: usage: wo clear <work-orders-dir> <wo-NN> [--reset-attempts]');
    return 2;
  }
  const at = nowIso();
  const result = clearWorkOrderHalt(dir, wo, at, flags.switches.has('--reset-attempts'));
  if (!result.ok) {
    out({ ok: false, wo_id: wo, reason: result.reason });
    err(`wo-clear wo=${wo} ${result.reason}`);
    return 1;
  }
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
  let path: string;
  try {
    path = setKillSwitch(task, on, nowIso());
  } catch (error) {
    if (!(error instanceof OutsideRootError)) throw error;
    err(`loop-ledger wo kill: ${error.message}`);
    return 2;
  }
  out({ ok: true, kill_switch: on, path });
  return 0;
}
