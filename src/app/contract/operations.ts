// The operations that validate a contract (and so load the schema library): open and validate.
// Kept apart from ../ledger/operations.ts so the CLI's other commands never load them (see cli/main.ts).
import type { BaselineEvidence } from '../../engine/baseline-evidence';
import { validateContract } from '../../engine/contract/validate';
import {
  attachEngineering,
  derivedContract,
  ENGINEERING_STALL_THRESHOLD,
} from '../../engine/engineering/admit';
import { open, openPrecheck, type OpenPayload } from '../../engine/open';
import { openSettingsRefusal } from '../../engine/open-settings';
import { DEFAULT_STALL_THRESHOLD } from '../../engine/ledger-view';
import { EXIT, isRefusal } from '../../engine/refusal';
import type { Finding, Ledger } from '../../engine/types';
import { caseTwin, keepCorruptCopy } from '../../store';
import { parseContractText, readContractFile } from './file';
import { readEngineeringContract } from '../engineering/open';
import { requireLedger, updateLedger } from '../ledger/access';
import type { StepResult } from '../ledger/steps';
import type { LockOptions } from '../ledger/lock-options';
import { fromRefusal, ledgerFile, operation, Refused, type Outcome } from '../outcome';
import { CONTRACT_LIMIT, INPUT_LIMIT, readTextFile } from '../read-input';
import { programResolver } from './resolve-program';

export interface OpenOpInput {
  /** The work-loop contract; optional when `engineeringPath` is given. */
  contractPath?: string | null;
  /** A loop-engineering contract (`open --engineering`): validated strictly, stored as ledger key `engineering`. */
  engineeringPath?: string | null;
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

export function openOp(
  root: string,
  session: string,
  input: OpenOpInput,
  lock: LockOptions = {},
): Outcome<OpenPayload> {
  const force = input.force === true;
  // Settings are refused before the ledger is even locked, as a usage error would be.
  const settings = openSettingsProblem(input);
  if (settings) return settings;
  return operation(ledgerFile(root, session), () =>
    updateLedger(
      root,
      session,
      (read, location) => {
        refuseCaseTwin(root, session);
        let existing: Ledger | null = null;
        const discardCorrupt = read.kind === 'corrupt' && force;
        if (read.kind !== 'absent' && !discardCorrupt) existing = requireLedger(read, location, session);
        const step = openStep(root, session, input)(existing);
        if (step.write === undefined) return step;
        // Only now, with the new ledger decided, is the unreadable one moved aside: never lost.
        // The original engine's file is never replaced (the write goes to .loop), so it needs no copy.
        const kept =
          discardCorrupt && !location.legacy ? keepCorruptCopy(location.readPath, input.now) : null;
        const notes: Finding[] = kept
          ? [{ message: `${location.readPath}: corrupt ledger kept as ${kept}` }]
          : [];
        return { write: step.write, result: { ...step.result, findings: notes } };
      },
      lock,
    ),
  );
}

/**
 * `open`'s engine step over the session's current ledger (null: none yet), whichever store
 * holds it; the contract files are read here, after the open-ledger check.
 */
export function openStep(
  root: string,
  session: string,
  input: OpenOpInput,
): (existing: Ledger | null) => StepResult<OpenPayload> {
  return (existing) => {
    const force = input.force === true;
    // The open-ledger check comes before the contract is read at all.
    const pre = openPrecheck(existing, force);
    if (pre) return { result: fromRefusal<OpenPayload>(pre) };
    const engineering = input.engineeringPath ? readEngineeringContract(input.engineeringPath) : null;
    const result = open({
      session,
      existing,
      contract: input.contractPath ? readContractFile(input.contractPath) : null,
      admittedContract: !input.contractPath && engineering ? derivedContract(engineering) : undefined,
      stallThreshold:
        input.stallThreshold ?? (engineering ? ENGINEERING_STALL_THRESHOLD : DEFAULT_STALL_THRESHOLD),
      force,
      baselineEvidence: readEvidence(input.baselineEvidence ?? []),
      now: input.now,
      resolveProgram: programResolver(root),
    });
    if (isRefusal(result)) return { result: fromRefusal<OpenPayload>(result) };
    const ledger = engineering ? attachEngineering(result.ledger, engineering) : result.ledger;
    return { write: ledger, result: { exitCode: 0, payload: result.payload, findings: [] } };
  };
}

/** The refusal of an open that sets a bad stall threshold, before any ledger is touched. */
export function openSettingsProblem(input: OpenOpInput): Outcome<OpenPayload> | null {
  const settings = openSettingsRefusal({ stallThreshold: input.stallThreshold ?? DEFAULT_STALL_THRESHOLD });
  return settings ? fromRefusal<OpenPayload>(settings) : null;
}

/**
 * Ids that differ only in case name one file on macOS and Windows: a new session is refused
 * when another spelling of its id has a ledger, so a ledger folder stays portable (exit 2).
 */
function refuseCaseTwin(root: string, session: string): void {
  const twin = caseTwin(root, session);
  if (twin !== null) throw caseTwinRefusal(session, twin);
}

/** The refusal of a new `session` whose id differs only in case from `twin`'s (both stores). */
export function caseTwinRefusal(session: string, twin: string): Refused {
  return new Refused(EXIT.usage, [
    `session id ${JSON.stringify(session)}: a ledger for ${JSON.stringify(twin)} exists, and ids that differ only in case name the same file on macOS and Windows; use ${JSON.stringify(twin)} or another id`,
  ]);
}

export interface ValidatePayload {
  file: string;
  valid: boolean;
  findings: { code: string | null; message: string; path: (string | number)[] }[];
  dimensions: number | null;
}

/**
 * The same findings for contract text already in memory (an unsaved editor buffer), so the
 * editor and `loop-ledger validate` can never disagree. Exit 0 valid, 1 invalid or not JSON.
 */
export function validateContractText(root: string, text: string, label: string): Outcome<ValidatePayload> {
  // The CLI's cap on a contract file, applied to the buffer too: the editor and `validate` refuse
  // the same text, and a 5 MB "contract" is never parsed or walked on the extension host.
  const bytes = Buffer.byteLength(text, 'utf8');
  if (bytes > CONTRACT_LIMIT) {
    const message = `${label}: contract file is ${bytes} bytes, over the ${CONTRACT_LIMIT}-byte limit`;
    return { exitCode: EXIT.usage, findings: [{ message, code: CONTRACT_TOO_LARGE }] };
  }
  return operation(() => validated(root, label, parseContractText(text, label)));
}

/** The finding code of a contract over CONTRACT_LIMIT (the editor shows it as one diagnostic). */
export const CONTRACT_TOO_LARGE = 'contract-too-large';

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
