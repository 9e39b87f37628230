// What a command hands back to main: an exit code plus either a payload to print or findings.
import type { Finding } from '../engine/types';
import type { ExitCode, Refusal } from '../engine/refusal';

export interface CommandOutcome {
  exitCode: ExitCode;
  /** Printed as JSON with --json. */
  payload?: unknown;
  /** Printed without --json. */
  human?: string;
  /** Printed on stderr, one per line. */
  findings?: (Finding | string)[];
}

/** Thrown anywhere in a command to stop with a refusal (nothing written). */
export class CommandExit extends Error {
  constructor(
    readonly exitCode: ExitCode,
    readonly findings: (Finding | string)[],
  ) {
    super(findings.map((f) => (typeof f === 'string' ? f : f.message)).join('; '));
  }
}

/**
 * `instanceof` is not enough: open and validate run from the second bundle (see main.ts), which
 * carries its own copy of this class.
 */
export function isCommandExit(error: unknown): error is CommandExit {
  const e = error as Partial<CommandExit> | null;
  return typeof e === 'object' && e !== null && typeof e.exitCode === 'number' && Array.isArray(e.findings);
}

export function fromRefusal(refusal: Refusal): CommandOutcome {
  return { exitCode: refusal.exitCode, findings: refusal.findings };
}
