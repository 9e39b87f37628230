// What a workspace checkpoint is, as data: its ref name, the record key an iteration carries,
// which paths are left out, and when a restore is refused. No git, no files: the driver gathers
// the facts and asks these functions.
import { sortKeysDeep } from '../ledger-view';
import type { Finding } from '../types';

/** Files bigger than this are left out of a checkpoint unless configured otherwise. */
export const DEFAULT_MAX_FILE_BYTES = 10 * 1024 * 1024;

export type ExclusionReason = 'too-large' | 'nested-repository' | 'submodule';

export interface ExcludedPath {
  path: string;
  reason: ExclusionReason;
  /** The file's size, for `too-large`. */
  bytes?: number;
}

/** The additive `checkpoint` key of an iteration record. */
export interface CheckpointRecord {
  /** The checkpoint commit (its tree is the workspace; its parent, when any, the HEAD then). */
  commit: string;
  ref: string;
  /** HEAD when the checkpoint was taken (null: no commit yet, or a shadow repository). */
  head: string | null;
  /** True when the workspace is not a git repository and `.loop/checkpoints.git` holds it. */
  shadow: boolean;
  excluded: ExcludedPath[];
}

/** Where every checkpoint ref lives; nothing else under it is ours to read or delete. */
export const REF_ROOT = 'refs/loop-ledger/';

const OBJECT_ID = /^(?:[0-9a-f]{40}|[0-9a-f]{64})$/;

export function isObjectId(value: unknown): value is string {
  return typeof value === 'string' && OBJECT_ID.test(value);
}

/**
 * The ref of iteration `n` of `epoch` in `session`, or why there can be none: a session id the
 * store accepts may still be a name git refuses (`..`, a trailing `.lock` or `.`).
 */
export function checkpointRef(
  session: string,
  epoch: number,
  n: number,
): { ref: string } | { problem: string } {
  if (!Number.isSafeInteger(epoch) || !Number.isSafeInteger(n) || epoch < 0 || n < 1) {
    return { problem: `no checkpoint ref for epoch ${epoch} iteration ${n}` };
  }
  if (
    !/^[A-Za-z0-9][A-Za-z0-9._-]*$/.test(session) ||
    session.includes('..') ||
    session.endsWith('.lock') ||
    session.endsWith('.')
  ) {
    return {
      problem: `session id ${JSON.stringify(session)} cannot name a git ref; checkpoints need another id`,
    };
  }
  return { ref: `${REF_ROOT}${session}/${epoch}-${n}` };
}

/** The prefix of every ref of `session` (with the trailing slash). */
export function sessionRefPrefix(session: string): string {
  return `${REF_ROOT}${session}/`;
}

/**
 * The record's `checkpoint` key checked before any of it reaches git: the commit is a full hex
 * object id and the ref is exactly the one this session, epoch and iteration would have.
 */
export function readCheckpointKey(
  value: unknown,
  session: string,
  epoch: number,
  n: number,
): { checkpoint: CheckpointRecord } | { problem: string } | null {
  if (value === undefined || value === null) return null;
  const where = `${session} iteration ${n}: checkpoint`;
  if (typeof value !== 'object' || Array.isArray(value)) return { problem: `${where} is not an object` };
  const v = value as Record<string, unknown>;
  if (!isObjectId(v.commit)) return { problem: `${where}.commit is not a full hex object id` };
  const expected = checkpointRef(session, epoch, n);
  if ('problem' in expected) return { problem: `${where}: ${expected.problem}` };
  if (v.ref !== expected.ref) return { problem: `${where}.ref is not ${expected.ref}` };
  if (v.head !== null && v.head !== undefined && !isObjectId(v.head)) {
    return { problem: `${where}.head is not a full hex object id` };
  }
  const excluded = Array.isArray(v.excluded)
    ? v.excluded.filter(
        (e): e is ExcludedPath =>
          typeof e === 'object' && e !== null && typeof (e as ExcludedPath).path === 'string',
      )
    : [];
  return {
    checkpoint: {
      commit: v.commit,
      ref: expected.ref,
      head: (v.head as string | null | undefined) ?? null,
      shadow: v.shadow === true,
      excluded,
    },
  };
}

/** A path the workspace scan found changed or untracked, with what it is. */
export interface Candidate {
  path: string;
  kind: 'file' | 'nested-repository' | 'submodule' | 'other';
  bytes: number;
}

/** The candidates a checkpoint leaves out, sorted by path. */
export function exclusions(candidates: readonly Candidate[], maxFileBytes: number): ExcludedPath[] {
  const out: ExcludedPath[] = [];
  for (const c of candidates) {
    if (c.kind === 'nested-repository' || c.kind === 'submodule') out.push({ path: c.path, reason: c.kind });
    else if (c.kind === 'file' && c.bytes > maxFileBytes)
      out.push({ path: c.path, reason: 'too-large', bytes: c.bytes });
  }
  return out.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
}

/** `LOOP_LEDGER_CHECKPOINT_MAX_MB` as bytes, or why it is not a size. */
export function maxFileBytes(setting: string | undefined): number | { problem: string } {
  if (setting === undefined || setting.trim() === '') return DEFAULT_MAX_FILE_BYTES;
  const mb = Number(setting);
  if (!Number.isFinite(mb) || mb <= 0) {
    return {
      problem: `LOOP_LEDGER_CHECKPOINT_MAX_MB must be a positive number of megabytes, not ${JSON.stringify(setting)}`,
    };
  }
  return Math.floor(mb * 1024 * 1024);
}

/** What the driver found about the repository before a restore. */
export interface RestoreFacts {
  /** `merge`, `rebase`, `cherry-pick`, `revert` when one is in progress; null otherwise. */
  inProgress: string | null;
  headNow: string | null;
  headThen: string | null;
  staged: boolean;
  shadow: boolean;
  force: boolean;
}

/** Why a restore must not run (empty: it may). An operation in progress is never forced. */
export function restoreRefusals(f: RestoreFacts): Finding[] {
  const findings: Finding[] = [];
  if (f.shadow) return findings;
  if (f.inProgress !== null) {
    findings.push({
      message: `a ${f.inProgress} is in progress: finish or abort it before restoring a checkpoint`,
      code: 'git-operation-in-progress',
    });
  }
  if (f.force) return findings;
  if (f.headNow !== f.headThen) {
    findings.push({
      message: `HEAD has moved since the checkpoint (${short(f.headThen)} then, ${short(f.headNow)} now); --force restores the files anyway`,
      code: 'head-moved',
    });
  }
  if (f.staged) {
    findings.push({
      message: 'the index holds staged changes; commit or unstage them, or --force',
      code: 'staged-changes',
    });
  }
  return findings;
}

const short = (id: string | null): string => (id === null ? 'no commit' : id.slice(0, 12));

/** One line of `git diff-tree -r` between the workspace now and the checkpoint. */
export interface TreeChange {
  /** A added in the checkpoint, D only in the workspace now, M/T changed. */
  status: string;
  /** The mode on the checkpoint's side (`000000` when deleted there). */
  mode: string;
  /** The mode on the workspace's side. */
  modeNow: string;
  path: string;
}

export interface RestorePlan {
  /** Written from the checkpoint. */
  write: string[];
  /** Removed: added since the checkpoint. */
  remove: string[];
  /** Left alone: a file the checkpoint has that is now ignored or too large to compare. */
  kept: string[];
}

/**
 * Which paths a restore writes and removes. Never a submodule or nested repository, never the
 * ledger's own `.loop` folder; a path the checkpoint has but the workspace scan did not see
 * (ignored now, or left out as too large) is kept as it is when a file is there.
 */
export function restorePlan(
  changes: readonly TreeChange[],
  loopPrefix: string,
  existsUnseen: (path: string) => boolean,
): RestorePlan {
  const plan: RestorePlan = { write: [], remove: [], kept: [] };
  for (const c of changes) {
    if (c.mode === '160000' || c.modeNow === '160000') continue;
    if (c.path === loopPrefix.replace(/\/$/, '') || c.path.startsWith(loopPrefix)) continue;
    if (c.status === 'D') plan.remove.push(c.path);
    else if (c.status === 'A' && existsUnseen(c.path)) plan.kept.push(c.path);
    else plan.write.push(c.path);
  }
  return plan;
}

/** `ledger` with `record` (its newest iteration) carrying the `checkpoint` key. */
export function withCheckpoint<L extends { iterations: R[] }, R extends { n: number; epoch: number }>(
  ledger: L,
  record: R,
  checkpoint: CheckpointRecord,
): { ledger: L; record: R } {
  const withKey = sortKeysDeep({ ...record, checkpoint }) as R;
  const iterations = ledger.iterations.map((r) =>
    r === record || (r.n === record.n && r.epoch === record.epoch) ? withKey : r,
  );
  return { ledger: { ...ledger, iterations }, record: withKey };
}

/**
 * `ledger` with `record` (its newest iteration) carrying `checkpoint_skipped`: why a checkpoint
 * that was due (by default, or by the contract) could not be taken. The iteration still lands.
 */
export function withSkippedCheckpoint<L extends { iterations: R[] }, R extends { n: number; epoch: number }>(
  ledger: L,
  record: R,
  why: string,
): { ledger: L; record: R } {
  const withKey = sortKeysDeep({ ...record, checkpoint_skipped: why }) as R;
  const iterations = ledger.iterations.map((r) =>
    r === record || (r.n === record.n && r.epoch === record.epoch) ? withKey : r,
  );
  return { ledger: { ...ledger, iterations }, record: withKey };
}
