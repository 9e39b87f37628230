// `loop-ledger wo <kernel> …`: the work-order queue. Every generic kernel of the original
// (`wo-X.sh ARGS…`) is `loop-ledger wo X ARGS…` with the same arguments, stdout JSON, stderr
// status line, files and exit codes; plus `run` (the loop) and the human verbs.
import { printFindings, printLine } from './output';

type Kernel = (argv: string[]) => number | Promise<number>;

// Built as its own bundle (dist/wo-kernels.js) that `loop-ledger wo` loads on demand, so the
// YAML parser and the work-order code never cost the other commands' start-up; inside it, each
// kernel group is evaluated only when called.
const KERNELS: Record<string, () => Promise<Kernel>> = {
  compile: async () => (await import('./commands/wo/compile')).main,
  'run-state': async () => (await import('./commands/wo/run-state')).main,
  'reconcile-table': async () => (await import('./commands/wo/reconcile')).main,
  'obs-append': async () => (await import('./commands/wo/obs')).appendMain,
  'obs-report': async () => (await import('./commands/wo/obs')).reportMain,
  'ship-gate': async () => (await import('./commands/wo/gates')).shipMain,
  'merge-gate': async () => (await import('./commands/wo/gates')).mergeMain,
  'mode-gate': async () => (await import('./commands/wo/gates')).modeMain,
  'critique-aggregate': async () => (await import('./commands/wo/critique')).main,
  'risk-classify': async () => (await import('./commands/wo/risk')).main,
  'parallel-batch': async () => (await import('./commands/wo/parallel')).batchMain,
  'merge-back': async () => (await import('./commands/wo/parallel')).mergeBackMain,
  'review-snapshot': async () => (await import('./commands/wo/parallel')).reviewSnapshotMain,
  'oracle-check': async () => (await import('./commands/wo/oracle')).main,
  halt: async () => (await import('./commands/wo/admin')).haltMain,
  clear: async () => (await import('./commands/wo/admin')).clearMain,
  kill: async () => (argv) => import('./commands/wo/admin').then((m) => m.killMain(argv, true)),
  unkill: async () => (argv) => import('./commands/wo/admin').then((m) => m.killMain(argv, false)),
  run: async () => (await import('./commands/wo/run')).main,
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
  oracle-check <wo-file> --diff-from NAME-STATUS [--oracle-files RULES.json]
The loop and the human verbs:
  run <task> [--builder-config agents.toml | --builder CMD --reviewer CMD] [--critic CMD] [--cap N]
             [--in-place | --parallel [--max N]]
  halt <dir> <wo> --reason R   clear <dir> <wo> [--reset-attempts]   kill <task>   unkill <task>`;

export async function main(argv: string[]): Promise<number> {
  const [name, ...rest] = argv;
  if (name === undefined || name === '--help' || name === '-h' || name === 'help') {
    printLine(USAGE);
    return name === undefined ? 2 : 0;
  }
  const load = Object.prototype.hasOwnProperty.call(KERNELS, name) ? KERNELS[name] : undefined;
  if (!load) {
    printLine(USAGE);
    printFindings([`loop-ledger wo: unknown kernel ${JSON.stringify(name.slice(0, 80))}`]);
    return 2;
  }
  const kernel = await load();
  return kernel(rest);
}
