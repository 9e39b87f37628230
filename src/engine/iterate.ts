// `iterate`: decide one iteration — every refusal in the reference's order, then the derived
// fields, the stall predicates and the new ledger. Pure: the caller passes the ledger and `now`.
import { deriveBaseline } from './baseline';
import { closeLedger, missingEscalateFields, wrongStateMessage } from './close-fields';
import { currentEpoch, isBlank, sortKeysDeep, utcStamp } from './ledger-view';
import { parseMeasurements } from './measurements';
import { pyStrip } from './python-text';
import { EXIT, refuse, type Refusal } from './refusal';
import { scoreRubric } from './score';
import { errorSignature, stateHash } from './signature';
import { summarizeRecords, type RecordsSummary } from './records-summary';
import { detectStall } from './stall';
import { recordSpend, type Spend } from './spend';
import {
  CRITIC_VERDICTS,
  DECISIONS,
  type CriticVerdict,
  type Decision,
  type Evaluation,
  type Finding,
  type IterationRecord,
  type Ledger,
  type Outcome,
} from './types';

export interface IterateInput {
  outcome: Outcome;
  actions?: string[];
  error?: string | null;
  state?: string | null;
  dependencyMissing?: string | null;
  blocker?: string | null;
  evidence?: string | null;
  recommendedNext?: string | null;
  measures?: string[];
  filesChanged?: string[];
  commandsRun?: string[];
  evidencePaths?: string[];
  criticVerdict?: string | null;
  criticNext?: string | null;
  criticBrief?: string | null;
  decision?: string | null;
  note?: string | null;
  /** Set by `repeat`: its own cycle rule replaces the circular-state predicate. */
  ownCycleRule?: boolean;
  now: Date;
  /** Loop-engineering caps reached by this iteration (engineering/iterate.ts computes them). */
  budgetReached?: string[];
  /** What the iteration cost, when the caller reports it (checked by parseSpendValue). */
  costUsd?: number | null;
  tokensIn?: number | null;
  tokensOut?: number | null;
}

export interface IterateResult {
  ledger: Ledger;
  record: IterationRecord;
}

/** Stripped text, or null when blank (verdict, decision and brief id are read this way). */
function stripped(text: string | null | undefined): string | null {
  if (text === null || text === undefined) return null;
  const s = pyStrip(text);
  return s === '' ? null : s;
}

/** Optional free text: kept as given, empty string read as absent. */
function optional(text: string | null | undefined): string | null {
  return text === undefined || text === null || text === '' ? null : text;
}

/** Python-style membership in the contract's declared dependencies (a list, or text). */
export function dependencyDeclared(dependencies: unknown, name: string): boolean {
  if (Array.isArray(dependencies)) return dependencies.some((d) => d === name);
  if (typeof dependencies === 'string') return dependencies.includes(name);
  return false;
}

function criticFindings(
  input: IterateInput,
  ledger: Ledger,
  verdict: string | null,
  evidencePaths: string[],
): Finding[] {
  const findings: Finding[] = [];
  if (verdict === null) return findings;
  const brief = stripped(input.criticBrief);
  const pending = ledger.pending_brief?.brief_id ?? null;
  if (brief === null) {
    findings.push({
      message: '--critic-verdict needs --critic-brief naming the brief the verdict judged',
      code: 'no-critic-brief',
    });
  } else if (pending === null) {
    findings.push({
      message: `--critic-brief ${brief}: no brief pending (run brief first; a brief buys one verdict)`,
      code: 'no-brief-pending',
    });
  } else if (brief !== pending) {
    findings.push({
      message: `--critic-brief ${brief}: does not match the pending brief ${pending}`,
      code: 'brief-mismatch',
    });
  }
  if (stripped(input.criticNext) === null) {
    findings.push({
      message: '--critic-verdict needs --critic-next: the single most valuable next improvement',
      code: 'no-critic-next',
    });
  }
  if (evidencePaths.length === 0) {
    findings.push({
      message: '--critic-verdict needs at least one --evidence-path',
      code: 'no-evidence-path',
    });
  }
  return findings;
}

/** The spend keys the caller reported (only those: a record without them reads as before). */
function reportedSpend(input: IterateInput): Partial<Spend> {
  return recordSpend({ cost_usd: input.costUsd, tokens_in: input.tokensIn, tokens_out: input.tokensOut });
}

/**
 * Old records are read only through `records` (records-summary.ts). A caller that did not parse
 * them (the store's fast path) passes their stored summary and a ledger whose `iterations` holds
 * none of them: the result's `iterations` then holds just the new record.
 */
export function iterate(
  ledger: Ledger,
  input: IterateInput,
  records: RecordsSummary = summarizeRecords(ledger.iterations),
): IterateResult | Refusal {
  if (ledger.status !== 'open') {
    return refuse(EXIT.wrongState, [
      wrongStateMessage(ledger, 'iterate needs an open ledger (re-open it with open)'),
    ]);
  }
  const actions = input.actions ?? [];
  const completed = new Set(ledger.completed_actions);
  const repeated = actions.filter((a) => completed.has(a));
  if (repeated.length > 0) {
    return refuse(
      EXIT.actionCompleted,
      [...new Set(repeated)].map(
        (a) => `--action ${a}: already recorded complete; the whole batch is refused`,
      ),
    );
  }
  const dependencyMissing = optional(input.dependencyMissing);
  if (dependencyMissing !== null && !dependencyDeclared(ledger.contract.dependencies, dependencyMissing)) {
    return refuse(EXIT.malformed, [
      {
        message: `--dependency-missing ${dependencyMissing}: not a dependency the contract declares`,
        code: 'undeclared-dependency',
      },
    ]);
  }
  const escalateFacts = {
    blocker: input.blocker ?? null,
    evidence: input.evidence ?? null,
    recommended_next: input.recommendedNext ?? null,
  };
  if (input.outcome === 'escalate') {
    const missing = missingEscalateFields(escalateFacts);
    if (missing.length > 0)
      return refuse(
        EXIT.malformed,
        missing.map((flag) => `escalate needs ${flag}`),
      );
  }

  const findings: Finding[] = [];
  const verdict = stripped(input.criticVerdict);
  const decision = stripped(input.decision);
  if (verdict !== null && !(CRITIC_VERDICTS as readonly string[]).includes(verdict)) {
    findings.push({
      message: `--critic-verdict ${verdict}: must be one of ${CRITIC_VERDICTS.join(' ')}`,
      code: 'bad-verdict',
    });
  }
  if (decision !== null && !(DECISIONS as readonly string[]).includes(decision)) {
    findings.push({
      message: `--decision ${decision}: must be one of ${DECISIONS.join(' ')}`,
      code: 'bad-decision',
    });
  }
  const evidencePaths = (input.evidencePaths ?? []).filter((p) => !isBlank(p));
  findings.push(...criticFindings(input, ledger, verdict, evidencePaths));
  const rubric = ledger.contract.quality_rubric ?? [];
  const measured = parseMeasurements(input.measures ?? [], rubric, false);
  findings.push(...measured.findings);
  if (findings.length > 0) return refuse(EXIT.malformed, findings);

  const hasMeasurements = (input.measures ?? []).length > 0;
  const evaluation: Evaluation | null = hasMeasurements ? scoreRubric(rubric, measured.values) : null;
  if (decision === 'retain' && evaluation && evaluation.hard_gate_failures.length > 0) {
    return refuse(
      EXIT.retainOverGate,
      evaluation.hard_gate_failures.map((d) => `--decision retain refused: hard gate ${d} is breached`),
    );
  }

  const spend = reportedSpend(input);
  const signature = errorSignature(optional(input.error));
  const hash = stateHash(optional(input.state));
  const stall =
    input.outcome === 'continue'
      ? detectStall(
          ledger,
          {
            dependencyMissing,
            errorSignature: signature,
            stateHash: hash,
            ownCycleRule: input.ownCycleRule,
            budgetReached: input.budgetReached,
            spend,
            now: input.now,
          },
          records,
        )
      : null;
  const outcome = stall ? stall.outcome : input.outcome;
  let blocker = optional(escalateFacts.blocker);
  let evidence = optional(escalateFacts.evidence);
  let recommendedNext = optional(escalateFacts.recommended_next);
  if (stall?.derived) {
    blocker = isBlank(blocker) ? stall.derived.blocker : blocker;
    evidence = isBlank(evidence) ? stall.derived.evidence : evidence;
    recommendedNext = isBlank(recommendedNext) ? stall.derived.recommended_next : recommendedNext;
  }

  const record: IterationRecord = sortKeysDeep({
    actions: [...actions],
    baseline: hasMeasurements ? deriveBaseline(ledger, records) : null,
    blocker,
    commands_run: [...(input.commandsRun ?? [])],
    critic_brief: stripped(input.criticBrief),
    critic_next: optional(input.criticNext),
    critic_verdict: verdict as CriticVerdict | null,
    decision: decision as Decision | null,
    dependency_missing: dependencyMissing,
    epoch: currentEpoch(ledger),
    error_signature: signature,
    evaluation,
    evidence,
    evidence_paths: evidencePaths,
    files_changed: [...(input.filesChanged ?? [])],
    measurements: hasMeasurements ? measured.values : null,
    n: records.count + 1,
    note: optional(input.note),
    outcome,
    recommended_next: recommendedNext,
    reported_outcome: input.outcome,
    stall: stall ? stall.name : null,
    state_hash: hash,
    timestamp: utcStamp(input.now),
    ...spend,
  }); // sorted at every level: the ledger is written with sorted keys

  const newlyCompleted = actions.filter((a, i) => !completed.has(a) && actions.indexOf(a) === i);
  let next: Ledger = {
    ...ledger,
    iterations: [...ledger.iterations, record],
    completed_actions: [...ledger.completed_actions, ...newlyCompleted],
  };
  if (verdict !== null) next.pending_brief = null;
  if (outcome !== 'continue') {
    next = closeLedger(next, {
      outcome,
      note: record.note,
      blocker: record.blocker,
      evidence: record.evidence,
      recommended_next: record.recommended_next,
    });
  }
  return { ledger: next, record };
}
