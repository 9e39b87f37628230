// `loop-ledger wo run-state <mode> <run-json> …` — drop-in for the original's wo-run-state.sh.
import { basename } from 'node:path';
import * as runState from '../../../engine/workorders/run-state';
import { readText, writeJsonAtomic } from '../../../drivers/workorders/files';
import { err, nowIso, out, parseFlags } from './io';

export function main(argv: string[]): number {
  const [mode, runJson] = argv;
  if (!mode || !runJson) {
    out({ ok: false, reason: 'usage: loop-ledger wo run-state <mode> <run-json> [opts]' });
    return 2;
  }
  const wo = basename(runJson).replace(/\.run\.json$/, '');
  const text = readText(runJson);
  const rest = argv.slice(2);
  let outcome: runState.RunStateOutcome;
  switch (mode) {
    case 'dispatch': {
      const flags = parseFlags(rest, ['--checkpoint-before', '--cap']);
      const cap = flags.values.get('--cap');
      outcome = runState.dispatch(wo, text, {
        checkpointBefore: flags.values.get('--checkpoint-before') ?? '',
        cap: cap === undefined || cap === '' ? String(runState.DEFAULT_CAP) : cap,
        now: nowIso(),
      });
      break;
    }
    case 'collect': {
      const flags = parseFlags(rest, [
        '--override-used',
        '--halt-reason',
        '--build-returned',
        '--checkpoint-after',
      ]);
      outcome = runState.collect(wo, text, {
        overrideUsed: flags.values.get('--override-used'),
        haltReason: flags.values.get('--halt-reason'),
        buildReturned: flags.values.get('--build-returned'),
        checkpointAfter: flags.values.get('--checkpoint-after'),
      });
      break;
    }
    case 'read':
      outcome = runState.read(wo, text);
      break;
    case 'halt': {
      const flags = parseFlags(rest, ['--reason']);
      outcome = runState.halt(wo, text, flags.values.get('--reason') ?? '');
      break;
    }
    default:
      out({ ok: false, reason: `unknown_mode:${mode}` });
      return 2;
  }
  if (outcome.write) {
    try {
      writeJsonAtomic(runJson, outcome.write);
    } catch {
      out({ ok: false, reason: 'sidecar_write_failed', mode, path: runJson });
      err(`wo-run-state ${mode} write-failed wo=${wo} path=${runJson}`);
      return 1;
    }
  }
  out(outcome.stdout);
  err(outcome.stderr);
  return outcome.exitCode;
}
