// What an operation hands back to its shell (the CLI or the extension): an exit code, the
// payload when there is one, and the findings to show. Refusals are values, not exceptions.
import type { ExitCode, Refusal } from '../engine/refusal';
import type { Finding } from '../engine/types';

export interface Outcome<P = unknown> {
  exitCode: ExitCode;
  /** The data the command reports (also present with exit 4 for status and exit 6 for score). */
  payload?: P;
  /** Refusal findings, or notes worth telling the user (e.g. a kept corrupt copy). */
  findings: Finding[];
}

/** Thrown inside an operation to stop with a refusal; `operation()` turns it into an Outcome. */
export class Refused extends Error {
  readonly findings: Finding[];
  constructor(
    readonly exitCode: ExitCode,
    findings: (Finding | string)[],
  ) {
    const list = findings.map((f) => (typeof f === 'string' ? { message: f } : f));
    super(list.map((f) => f.message).join('; '));
    this.findings = list;
  }
}

export function fromRefusal<P>(refusal: Refusal): Outcome<P> {
  return { exitCode: refusal.exitCode, findings: refusal.findings };
}

/** Runs an operation body, turning a thrown Refused into its Outcome. Other errors propagate. */
export function operation<P>(body: () => Outcome<P>): Outcome<P> {
  try {
    return body();
  } catch (error) {
    if (error instanceof Refused) return { exitCode: error.exitCode, findings: error.findings };
    throw error;
  }
}
