// What an operation hands back to its shell (the CLI or the extension): an exit code, the
// payload when there is one, and the findings to show. Refusals are values, not exceptions.
import { EXIT, type ExitCode, type Refusal } from '../engine/refusal';
import type { Finding } from '../engine/types';
import { ledgerPath } from '../store/paths';
import { isSystemError, systemFailureMessage } from './system-error';

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

/**
 * Runs an operation body, turning a thrown Refused into its Outcome, and a file operation the
 * system refused (disk full, permission denied…) into exit 74 naming `file()` — the ledger the
 * operation works on, when it has one (see ledgerFile). Other errors (bugs) propagate.
 */
export function operation<P>(body: () => Outcome<P>): Outcome<P>;
export function operation<P>(file: () => string | undefined, body: () => Outcome<P>): Outcome<P>;
export function operation<P>(
  first: (() => Outcome<P>) | (() => string | undefined),
  second?: () => Outcome<P>,
): Outcome<P> {
  const body = (second ?? first) as () => Outcome<P>;
  const file = second ? (first as () => string | undefined) : undefined;
  try {
    return body();
  } catch (error) {
    return outcomeOfError<P>(error, file);
  }
}

/** operation() for an async body (the extension's reads that must not block its thread). */
export async function operationAsync<P>(
  file: () => string | undefined,
  body: () => Promise<Outcome<P>>,
): Promise<Outcome<P>> {
  try {
    return await body();
  } catch (error) {
    return outcomeOfError<P>(error, file);
  }
}

/** A thrown Refused or system error as its Outcome; anything else (a bug) is thrown again. */
function outcomeOfError<P>(error: unknown, file: (() => string | undefined) | undefined): Outcome<P> {
  if (error instanceof Refused) return { exitCode: error.exitCode, findings: error.findings };
  if (isSystemError(error)) {
    return { exitCode: EXIT.system, findings: [{ message: systemFailureMessage(error, file?.()) }] };
  }
  throw error;
}

/** The ledger a command on `session` works on, named when the system refuses a file operation. */
export function ledgerFile(root: string, session: string): () => string | undefined {
  return () => {
    try {
      return ledgerPath(root, session);
    } catch {
      return undefined; // a bad id is refused before any file is touched
    }
  };
}
