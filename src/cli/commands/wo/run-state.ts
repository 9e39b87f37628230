// `loop-ledger wo run-state <mode> <run-json> …` — drop-in for the original's wo-run-state.sh.
import * as runState from '../../../engine/workorders/run-state';
import { applyToSidecar, sidecarWo } from '../../../app/workorders/run-state-file';
import { err, nowIso, out, parseKernelFlags } from './io';

type Mode = (wo: string, text: string | undefined) => runState.RunStateOutcome;

function modeOf(mode: string, rest: string[]): Mode | undefined {
  switch (mode) {
    case 'dispatch': {
      const flags = parseKernelFlags(rest, ['--checkpoint-before', '--cap']);
      const cap = flags.values.get('--cap');
      return (wo, text) =>
        runState.dispatch(wo, text, {
          checkpointBefore: flags.values.get('--checkpoint-before') ?? '',
          cap: cap === undefined || cap === '' ? String(runState.DEFAULT_CAP) : cap,
          now: nowIso(),
        });
    }
    case 'collect': {
      const flags = parseKernelFlags(rest, [
        '--override-used',
        '--halt-reason',
        '--build-returned',
        '--checkpoint-after',
      ]);
      return (wo, text) =>
        runState.collect(wo, text, {
          overrideUsed: flags.values.get('--override-used'),
          haltReason: flags.values.get('--halt-reason'),
          buildReturned: flags.values.get('--build-returned'),
          checkpointAfter: flags.values.get('--checkpoint-after'),
        });
    }
    case 'read':
      return runState.read;
    case 'halt': {
      const flags = parseKernelFlags(rest, ['--reason']);
      return (wo, text) => runState.halt(wo, text, flags.values.get('--reason') ?? '');
    }
    default:
      return undefined;
  }
}

export function main(argv: string[]): number {
  const [mode, runJson] = argv;
  if (!mode || !runJson) {
    out({ ok: false, reason: 'usage: loop-ledger wo run-state <mode> <run-json> [opts]' });
    return 2;
  }
  const apply = modeOf(mode, argv.slice(2));
  if (!apply) {
    out({ ok: false, reason: `unknown_mode:${mode}` });
    return 2;
  }
  const outcome = applyToSidecar(runJson, apply);
  if ('writeFailed' in outcome) {
    out({ ok: false, reason: 'sidecar_write_failed', mode, path: runJson });
    err(`wo-run-state ${mode} write-failed wo=${sidecarWo(runJson)} path=${runJson}`);
    return 1;
  }
  out(outcome.stdout);
  err(outcome.stderr);
  return outcome.exitCode;
}
