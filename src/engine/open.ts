// `open`: start a loop, re-open a closed one as a new epoch, or discard with --force.
import { checkBaselineEvidence, type BaselineEvidence } from './baseline-evidence';
import { wrongStateMessage } from './close-fields';
import { validateContract } from './contract/validate';
import { sortKeysDeep, utcStamp } from './ledger-view';
import { openSettingsRefusal } from './open-settings';
import { EXIT, refuse, type Refusal } from './refusal';
import type { Contract, EpochEntry, Ledger } from './types';

export interface OpenInput {
  session: string;
  /** The readable ledger already stored for this session, if any. */
  existing: Ledger | null;
  /** The contract file's parsed JSON. */
  contract: unknown;
  stallThreshold: number;
  force: boolean;
  baselineEvidence: BaselineEvidence[];
  now: Date;
  /** Whether an evidence command's program resolves (PATH, absolute path, or under the root). */
  resolveProgram: (word: string) => boolean;
  /** A contract already admitted elsewhere (derived from a loop-engineering contract): not re-validated. */
  admittedContract?: Contract;
}

export interface OpenPayload {
  session: string;
  status: 'open';
  epoch: number;
  next_iteration: number;
}

/** Step 1 of open, before the contract is even read: an open ledger is never replaced without --force. */
export function openPrecheck(existing: Ledger | null, force: boolean): Refusal | null {
  if (existing && existing.status === 'open' && !force) {
    return refuse(EXIT.wrongState, [
      wrongStateMessage(existing, 'close it first, or pass --force to discard it'),
    ]);
  }
  return null;
}

function epochEntry(ledger: Ledger): EpochEntry {
  return {
    close_blocker: ledger.close_blocker ?? null,
    close_evidence: ledger.close_evidence ?? null,
    close_note: ledger.close_note ?? null,
    close_recommended_next: ledger.close_recommended_next ?? null,
    contract: ledger.contract,
    final_outcome: ledger.final_outcome ?? null,
    // As in the original: every n in the ledger at this moment, not only this epoch's.
    iterations: ledger.iterations.map((r) => r.n),
    n: (ledger.epochs?.length ?? 0) + 1,
  };
}

export function open(input: OpenInput): { ledger: Ledger; payload: OpenPayload } | Refusal {
  const settings = openSettingsRefusal(input);
  if (settings) return settings;
  const pre = openPrecheck(input.existing, input.force);
  if (pre) return pre;
  const validated = input.admittedContract
    ? { ok: true as const, contract: input.admittedContract }
    : validateContract(input.contract, input.resolveProgram);
  if (!validated.ok) return refuse(EXIT.malformed, validated.findings);
  // Sorted at every level, as the original engine writes it.
  const contract: Contract = sortKeysDeep(validated.contract);
  const evidence = checkBaselineEvidence(contract.quality_rubric, input.baselineEvidence);
  if (evidence.unreadable.length > 0) return refuse(EXIT.unreadableInput, evidence.unreadable);
  if (evidence.malformed.length > 0) return refuse(EXIT.malformed, evidence.malformed);

  const previous = input.force ? null : input.existing;
  const epochs = previous ? [...(previous.epochs ?? []), epochEntry(previous)] : [];
  const ledger: Ledger = {
    baseline_provenance: evidence.provenance,
    completed_actions: previous ? [...previous.completed_actions] : [],
    contract,
    epoch: epochs.length + 1,
    epochs,
    final_outcome: null,
    iterations: previous ? previous.iterations : [],
    opened_at: utcStamp(input.now),
    pending_brief: null,
    resumed: previous ? (previous.resumed ?? 0) : 0,
    session: input.session,
    stall_threshold: input.stallThreshold,
    status: 'open',
  };
  return {
    ledger,
    payload: {
      session: input.session,
      status: 'open',
      epoch: ledger.epoch as number,
      next_iteration: ledger.iterations.length + 1,
    },
  };
}
