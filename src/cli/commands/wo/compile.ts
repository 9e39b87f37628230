// `loop-ledger wo compile <subcommand> …` — drop-in for the original's wo-compile.sh kernels:
// set-status, assert-dispatchable, frontmatter, collect-handle, build-graph, coverage-slice,
// drift-guard, lockfile-sha, emit-frontmatter.
import { readFileSync } from 'node:fs';
import { stringify } from 'yaml';
import { coverageSlice } from '../../../engine/workorders/coverage-slice';
import { buildGraph } from '../../../engine/workorders/graph';
import { isObject } from '../../../engine/workorders/jq';
import {
  collectHandle,
  dispatchableFile,
  driftGuardOnDisk,
  frontmatterJson,
  lockfileShaOnDisk,
  setStatusFile,
} from '../../../app/workorders/compile-ops';
import { printLine } from '../../output';
import { err, out, parseKernelFlags } from './io';

const USAGE = `usage: loop-ledger wo compile <subcommand> [args]
  set-status <wo-file> <new-status>      transition a work order's status (legal-transition gate + deps check)
  assert-dispatchable <wo-file>          {dispatchable, reason, override_used}; exit 0 iff dispatchable
  frontmatter <wo-file>                  the parsed frontmatter as JSON (safe parser; aliases refused)
  collect-handle <worktree> <wo-file> [--checkpoint-before SHA] [--dispatched B] [--override-used B]
                 [--halt-reason R] [--build-returned B]   the git-derived 10-key build handle
  build-graph                            stdin {units:[{id, ac, blocked_by, blocks}]} → SCC-collapsed units
  coverage-slice                         stdin {coverage_map, aspects} → the WO's slice + fail-closed verified
  drift-guard                            stdin {code_path, cited_paths, cited_symbols, requirements} → drift_guard
  lockfile-sha                           stdin {cache_file, refs, compiled_from} → lockfile + compiled_from SHAs
  emit-frontmatter                       stdin JSON object → a YAML frontmatter block`;

function readStdin(): string {
  try {
    return readFileSync(0, 'utf8');
  } catch {
    return '';
  }
}

/** Text parsed as JSON: undefined when it is not JSON (empty included). */
function jsonOrUndefined(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

const truthy = (value: string | undefined): boolean =>
  ['true', 'TRUE', 'True', '1', 'yes', 'YES'].includes(value ?? '');

export function main(argv: string[]): number {
  const [sub, ...rest] = argv;
  switch (sub) {
    case 'set-status': {
      const [file, status] = rest;
      if (!file || !status) {
        err('wo-compile set-status: <wo-file> <new-status> required');
        out({
          ok: false,
          wo: null,
          previous_status: null,
          new_status: null,
          changed: false,
          reason: 'missing_arg',
        });
        return 2;
      }
      const result = setStatusFile(file, status);
      out(result.payload);
      return result.exitCode;
    }
    case 'assert-dispatchable': {
      const [file] = rest;
      if (!file) {
        err('wo-compile assert-dispatchable: <wo-file> required');
        out({ dispatchable: false, reason: 'no_wo_file', override_used: false });
        return 2;
      }
      const result = dispatchableFile(file);
      out(result.payload);
      return result.exitCode;
    }
    case 'frontmatter':
      out(frontmatterJson(rest[0] ?? ''));
      return 0;
    case 'collect-handle': {
      const flags = parseKernelFlags(rest, [
        '--checkpoint-before',
        '--dispatched',
        '--override-used',
        '--halt-reason',
        '--build-returned',
      ]);
      const [worktree, file] = flags.positionals;
      if (!worktree || !file) {
        err('wo-compile collect-handle: <worktree> <wo-file> required');
        return 2;
      }
      const fm = frontmatterJson(file);
      const id =
        typeof fm.id === 'string' && fm.id !== ''
          ? fm.id
          : fm.id === undefined || fm.id === null
            ? null
            : fm.id;
      const handle = collectHandle(
        worktree,
        id,
        {
          checkpointBefore: flags.values.get('--checkpoint-before') ?? '',
          dispatched: truthy(flags.values.get('--dispatched')),
          overrideUsed: truthy(flags.values.get('--override-used')),
          haltReason: flags.values.get('--halt-reason') ?? '',
          buildReturned: truthy(flags.values.get('--build-returned')),
        },
        err,
      );
      out(handle);
      return 0;
    }
    case 'build-graph': {
      let input: unknown;
      try {
        const text = readStdin();
        input = text.trim() === '' ? {} : JSON.parse(text);
      } catch {
        out({
          ok: false,
          halt_reason: 'malformed_input:not_json',
          units: [],
          collapsed: 0,
          acyclic: false,
          warnings: [],
        });
        return 1;
      }
      const result = buildGraph(input);
      out(result);
      return result.ok ? 0 : 1;
    }
    // The grounding computations always yield a verdict object and exit 0 (fail-closed inside).
    case 'coverage-slice':
      out(coverageSlice(jsonOrUndefined(readStdin())));
      return 0;
    case 'drift-guard':
      out(driftGuardOnDisk(jsonOrUndefined(readStdin())));
      return 0;
    case 'lockfile-sha': {
      // An empty stdin reads as {} (the original's `read() or "{}"`).
      const text = readStdin();
      out(lockfileShaOnDisk(text === '' ? {} : jsonOrUndefined(text)));
      return 0;
    }
    case 'emit-frontmatter': {
      const text = readStdin();
      let value: unknown;
      try {
        value = JSON.parse(text);
      } catch {
        value = undefined;
      }
      if (!isObject(value)) {
        err('wo-compile emit-frontmatter: stdin must be a JSON object');
        return 2;
      }
      printLine(`---\n${stringify(value, { lineWidth: 0 }).trimEnd()}\n---`);
      return 0;
    }
    case undefined:
    case '':
    case '-h':
    case '--help':
    case 'help':
      printLine(USAGE);
      return 0;
    default:
      err(`wo-compile: unknown subcommand: ${sub}`);
      err(USAGE);
      return 2;
  }
}
