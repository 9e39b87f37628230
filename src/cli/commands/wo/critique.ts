// `loop-ledger wo critique-aggregate --wo ID --tier T --mode M --expected N --critics-dir DIR
// --evaluated B [--diff-empty] [--required] [--run-at ISO] [--not-dispatched lens:reason]…`.
// Always exits 0: the verdict is the envelope's `blocking`.
import { aggregateCritiqueIn } from '../../../app/workorders/critique-aggregate';
import { nowIso, out, parseKernelFlags } from './io';

export function main(argv: string[]): number {
  const flags = parseKernelFlags(
    argv,
    ['--wo', '--tier', '--mode', '--expected', '--critics-dir', '--evaluated', '--run-at'],
    ['--diff-empty', '--required'],
    ['--not-dispatched'],
  );
  const envelope = aggregateCritiqueIn(flags.values.get('--critics-dir') ?? '', {
    wo: flags.values.get('--wo') ?? '',
    tier: flags.values.get('--tier') ?? 'high',
    mode: flags.values.get('--mode') ?? 'none',
    expected: flags.values.get('--expected') ?? '0',
    evaluated: flags.values.get('--evaluated') ?? 'false',
    diffEmpty: flags.switches.has('--diff-empty'),
    required: flags.switches.has('--required'),
    runAt: flags.values.get('--run-at') || nowIso(),
    notDispatched: flags.lists.get('--not-dispatched') ?? [],
  });
  out(envelope);
  return 0;
}
