// `loop-ledger wo <kernel> …`: the work-order queue. Every generic kernel of the original
// (`wo-X.sh ARGS…`) is `loop-ledger wo X ARGS…` with the same arguments, stdout JSON, stderr
// status line, files and exit codes; plus `run` (the loop) and the human verbs.
import { join } from 'node:path';
import { printFindings, printLine } from './output';

type Kernel = (argv: string[]) => number | Promise<number>;

/**
 * One kernel group's bundle (dist/wo/<group>.js, from src/cli/commands/wo/<group>.ts), required
 * only when one of its kernels runs: the YAML parser and the loop never cost the other kernels'
 * start-up. The path is computed at run time on purpose, so esbuild leaves the require alone.
 */
function group(name: string): Record<string, unknown> {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  return require(join(__dirname, `${name}.js`)) as Record<string, unknown>;
}
const kernel =
  (name: string, exported = 'main'): (() => Kernel) =>
  () =>
    group(name)[exported] as Kernel;

const KERNELS: Record<string, () => Kernel> = {
  compile: kernel('compile'),
  'run-state': kernel('run-state'),
  'reconcile-table': kernel('reconcile'),
  'obs-append': kernel('obs', 'appendMain'),
  'obs-report': kernel('obs', 'reportMain'),
  'ship-gate': kernel('gates', 'shipMain'),
  'merge-gate': kernel('gates', 'mergeMain'),
  'mode-gate': kernel('gates', 'modeMain'),
  'critique-aggregate': kernel('critique'),
  'risk-classify': kernel('risk'),
  'parallel-batch': kernel('parallel', 'batchMain'),
  'merge-back': kernel('parallel', 'mergeBackMain'),
  'review-snapshot': kernel('parallel', 'reviewSnapshotMain'),
  'oracle-check': kernel('oracle'),
  halt: kernel('admin', 'haltMain'),
  clear: kernel('admin', 'clearMain'),
  kill: () => (argv) => (group('admin').killMain as (argv: string[], on: boolean) => number)(argv, true),
  unkill: () => (argv) => (group('admin').killMain as (argv: string[], on: boolean) => number)(argv, false),
  run: kernel('run'),
};

const USAGE = `usage: loop-ledger wo <kernel> [args]

The work-order queue. Kernels (drop-in for the original wo-*.sh scripts):
  compile <sub> …            set-status | assert-dispatchable | frontmatter | collect-handle | build-graph |
                             coverage-slice | drift-guard | lockfile-sha | emit-frontmatter
  run-state <mode> <run-json> dispatch | collect | read | halt (the retry-cap sidecar)
  reconcile-table <dir>      one read-only row per work order
  obs-append <dir> <wo> --disposition D      obs-report <dir> [--format json|text]
  ship-gate <task>           merge-gate <task>           mode-gate <task> [--mode M]
  critique-aggregate …       risk-classify [<wo-file>] --files-from LIST
  parallel-batch <dir> [--max N]   merge-back <git-dir> <branch>   review-snapshot <task> <wo-id>
  oracle-check <wo-file> --diff-from NAME-STATUS [--oracle-files RULES.json]
The loop and the human verbs:
  run <task> [--builder-config agents.toml | --builder CMD --reviewer CMD] [--critic CMD] [--cap N]
             [--in-place | --parallel [--max N]] [--store URL] [--project NAME]
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
  try {
    return await load()(rest);
  } catch (error) {
    // A write that would leave its task folder (confine.ts): one line, exit 2. Matched by name,
    // since each kernel group is its own bundle with its own copy of the error class.
    if (error instanceof Error && error.name === 'OutsideRootError') {
      printFindings([`loop-ledger wo ${name}: ${error.message}`]);
      return 2;
    }
    throw error;
  }
}
