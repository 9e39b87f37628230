// Every engine rule returns either a result or a Refusal: an exit code and the findings that
// justify it. Shells print the findings one per line and exit with the code.
import { fieldsNamedIn } from './fields';
import type { Finding } from './types';

/** The exit codes of the reference, by meaning. */
export const EXIT = {
  ok: 0,
  malformed: 1,
  usage: 2,
  wrongState: 3,
  noIterations: 4,
  actionCompleted: 5,
  gateBreached: 6,
  retainOverGate: 7,
  unreadableInput: 8,
  scopeNotCovered: 9,
  /**
   * Loop Ledger's own: the system refused a file operation (disk full, permission denied…).
   * sysexits.h's EX_IOERR, so it stays clear of the small codes the drivers give meanings to
   * (`repeat` exits 10 for a partial convergence).
   */
  system: 74,
  /** Loop Ledger's own: a bug — the message says where to report it. sysexits.h's EX_SOFTWARE. */
  internal: 70,
} as const;
export type ExitCode = (typeof EXIT)[keyof typeof EXIT];

/** What each exit code means, for people (the extension shows it beside a refusal). */
export const EXIT_MEANING: Record<ExitCode, string> = {
  0: 'ok',
  1: 'the contract or the iteration facts are malformed',
  2: 'usage error, or no readable ledger',
  3: 'the ledger is not in a state this command acts on',
  4: 'reported over a ledger with no iterations',
  5: 'an action is already recorded complete',
  6: 'scored, and a hard gate breached its failure threshold',
  7: 'refused: retain over a breached hard gate',
  8: 'an input the command needs could not be read, or was empty',
  9: 'the diff does not cover the declared change scope',
  74: 'the system refused a file operation (disk full, permission denied, read-only file system…)',
  70: 'an internal error in loop-ledger (a bug to report)',
};

export interface Refusal {
  refused: true;
  exitCode: ExitCode;
  findings: Finding[];
}

/** A refusal; each finding carries the fields its message names, so a shell can name them its way. */
export function refuse(exitCode: ExitCode, findings: (Finding | string)[]): Refusal {
  return {
    refused: true,
    exitCode,
    findings: findings.map((f) => {
      const finding = typeof f === 'string' ? { message: f } : f;
      const fields = finding.fields ?? fieldsNamedIn(finding.message);
      return fields.length > 0 ? { ...finding, fields } : finding;
    }),
  };
}

export function isRefusal(value: unknown): value is Refusal {
  return typeof value === 'object' && value !== null && (value as Refusal).refused === true;
}
