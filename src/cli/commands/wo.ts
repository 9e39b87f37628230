// `loop-ledger wo <kernel> …`: the work-order queue. Every generic kernel of the original
// (`wo-X.sh ARGS…`) is `loop-ledger wo X ARGS…` with the same arguments, stdout JSON, stderr
// status line, files and exit codes; plus `run` (the loop) and the human verbs.
import { printFindings, printLine } from '../output';
import * as admin from './wo/admin';
import * as compile from './wo/compile';
import * as critique from './wo/critique';
import * as gates from './wo/gates';
import * as obs from './wo/obs';
import * as parallel from './wo/parallel';
import * as reconcile from './wo/reconcile';
import * as risk from './wo/risk';
import * as runState from './wo/run-state';
import * as run from './wo/run';

export const raw = true;

type Kernel = (argv: string[]) => number | Promise<number>;

const KERNELS: Record<string, Kernel> = {
  compile: compile.main,
  'run-state': runState.main,
  'reconcile-table': reconcile.main,
  'obs-append': obs.appendMain,
  'obs-report': obs.reportMain,
  'ship-gate': gates.shipMain,
  'merge-gate': gates.mergeMain,
  'mode-gate': gates.modeMain,
  'critique-aggregate': critique.main,
  'risk-classify': risk.main,
  'parallel-batch': parallel.batchMain,
  'merge-back': parallel.mergeBackMain,
  'review-snapshot': parallel.reviewSnapshotMain,
  halt: admin.haltMain,
  clear: admin.clearMain,
  kill: (argv) => admin.killMain(argv, true),
  unkill: (argv) => admin.killMain(argv, false),
  run: run.main,
};

const USAGE = `usage: loop-ledger wo <kernel> [args]

The work-order queue. Kernels (drop-in for the original wo-*.sh scripts):
  compile <sub> …            set-status | assert-dispatchable | frontmatter | collect-handle | build-graph | emit-frontmatter
  run-state <mode> <run-json> dispatch | collect | read | halt (the retry-cap sidecar)
  reconcile-table <dir>      one read-only row per work order
  obs-append <dir> <wo> --disposition D      obs-report <dir> [--format json|text]
  ship-gate <task>           merge-gate <task>           mode-gate <task> [--mode M]
  critique-aggregate …       risk-classify [<wo-file>] --files-from LIST
  parallel-batch <dir> [--max N]   merge-back <git-dir> <branch>   review-snapshot <task> <wo-id>
The loop and the human verbs:
  run <task> [--builder CMD] [--reviewer CMD] [--critic CMD] [--cap N] [--in-place]
  halt <dir> <wo> --reason R   clear <dir> <wo> [--reset-attempts]   kill <task>   unkill <task>`;

export function main(argv: string[]): number | Promise<number> {
  const [name, ...rest] = argv;
  if (name === undefined || name === '--help' || name === '-h' || name === 'help') {
    printLine(USAGE);
    return name === undefined ? 2 : 0;
  }
  const kernel = Object.prototype.hasOwnProperty.call(KERNELS, name) ? KERNELS[name] : undefined;
  if (!kernel) {
    printLine(USAGE);
    printFindings([`loop-ledger wo: unknown kernel ${JSON.stringify(name.slice(0, 80))}`]);
    return 2;
  }
  return kernel(rest);
}
