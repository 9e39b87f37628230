// The operations that validate a contract (and so load the schema library): open and validate.
// Kept apart from operations.ts so the CLI's other commands never load them (see cli/main.ts).
import type { BaselineEvidence } from '../engine/baseline-evidence';
import { validateContract } from '../engine/contract/validate';
import { open, openPrecheck, type OpenPayload } from '../engine/open';
import { EXIT, isRefusal } from '../engine/refusal';
import type { Finding, Ledger } from '../engine/types';
import { caseTwin, keepCorruptCopy } from '../store';
import { parseContractText, readContractFile } from './contract-file';
import { requireLedger, updateLedger } from './ledger-access';
import { fromRefusal, ledgerFile, operation, Refused, type Outcome } from './outcome';
import { INPUT_LIMIT, readTextFile } from './read-input';
import { programResolver } from './resolve-program';

export interface OpenOpInput {
  contractPath: string;
  stallThreshold?: number;
  force?: boolean;
  /** Raw `DIMENSION=PATH` specs; the transcripts are read here. */
  baselineEvidence?: string[];
  now: Date;
}

function readEvidence(specs: string[]): BaselineEvidence[] {
  return specs.map((spec) => {
    const eq = spec.indexOf('=');
    if (eq <= 0 || eq === spec.length - 1) return { spec };
    return { spec, transcript: readTextFile(spec.slice(eq + 1), INPUT_LIMIT) };
  });
}

export function openOp(root: string, session: string, input: OpenOpInput): Outcome<OpenPayload> {
  const force = input.force === true;
  return operation(ledgerFile(root, session), () =>
    updateLedger(root, session, (read, location) => {
      refuseCaseTwin(root, session);
      let existing: Ledger | null = null;
      const discardCorrupt = read.kind === 'corrupt' && force;
      if (read.kind !== 'absent' && !discardCorrupt) existing = requireLedger(read, location, session);
      // The open-ledger check comes before the contract is read at all.
      const pre = openPrecheck(existing, force);
      if (pre) return { result: fromRefusal<OpenPayload>(pre) };
      const result = open({
        session,
        existing,
        contract: readContractFile(input.contractPath),
        stallThreshold: input.stallThreshold ?? 3,
        force,
        baselineEvidence: readEvidence(input.baselineEvidence ?? []),
        now: input.now,
        resolveProgram: programResolver(root),
      });
      if (isRefusal(result)) return { result: fromRefusal<OpenPayload>(result) };
      // Only now, with the new ledger decided, is the unreadable one moved aside: never lost.
      // The original engine's file is never replaced (the write goes to .loop), so it needs no copy.
      const kept = discardCorrupt && !location.legacy ? keepCorruptCopy(location.readPath, input.now) : null;
      const notes: Finding[] = kept
        ? [{ message: `${location.readPath}: corrupt ledger kept as ${kept}` }]
        : [];
      return { write: result.ledger, result: { exitCode: 0, payload: result.payload, findings: notes } };
    }),
  );
}

/**
 * Ids that differ only in case name one file on macOS and Windows: a new session is refused
 * when another spelling of its id has a ledger, so a ledger folder stays portable (exit 2).
 */
function refuseCaseTwin(root: string, session: string): void {
  const twin = caseTwin(root, session);
  if (twin === null) return;
  throw new Refused(EXIT.usage, [
    `session id ${JSON.stringify(session)}: a ledger for ${JSON.stringify(twin)} exists, and ids that differ only in case name the same file on macOS and Windows; use ${JSON.stringify(twin)} or another id`,
  ]);
}

export interface ValidatePayload {
  file: string;
  valid: boolean;
  findings: { code: string | null; message: string; path: (string | number)[] }[];
  dimensions: number | null;
}

/** Contract findings without opening a loop: exit 0 valid, 1 invalid, 2 unreadable. */
export function validateOp(root: string, contractPath: string): Outcome<ValidatePayload> {
  return operation(() => validated(root, contractPath, readContractFile(contractPath)));
}

/**
 * The same findings for contract text already in memory (an unsaved editor buffer), so the
 * editor and `loop-ledger validate` can never disagree. Exit 0 valid, 1 invalid or not JSON.
 */
export function validateContractText(root: string, text: string, label: string): Outcome<ValidatePayload> {
  return operation(() => validated(root, label, parseContractText(text, label)));
}

function validated(root: string, file: string, raw: unknown): Outcome<ValidatePayload> {
  const result = validateContract(raw, programResolver(root));
  const findings = result.ok ? [] : result.findings;
  const payload: ValidatePayload = {
    file,
    valid: result.ok,
    findings: findings.map((f) => ({ code: f.code ?? null, message: f.message, path: f.path ?? [] })),
    dimensions: result.ok ? result.contract.quality_rubric.length : null,
  };
  return { exitCode: result.ok ? 0 : 1, payload, findings };
}
