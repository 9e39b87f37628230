// Settles the session's newest run before the next one starts, trusting only what an agent cannot
// write without editing the ledger. The harness records a run's ending in the ledger — with the
// SHA-256 of the ending file it saved just before — and only then writes the receipt. So:
// - no receipt, and the ledger holds the digest of this run's saved ending: the harness was killed
//   between the ledger write and the receipt; the receipt is written from the saved ending;
// - a receipt the ledger does not vouch for, while the run's epoch is still open: the harness never
//   got that far, so an agent (or a hand) wrote it. It is set aside as evidence and the run is
//   resumed from its first unrecorded attempt, as after any crash;
// - a receipt that differs from the vouched ending (rewritten after the run): put back.
// Everything happens under the ledger's lock (on a PostgreSQL store, inside the write holding the
// session's row), so two runs racing settle it once.
import { createHash } from 'node:crypto';
import { existsSync, renameSync } from 'node:fs';
import { join } from 'node:path';
import { isObject } from '../../engine/json-object';
import { RUN_ENDING_FILE, receiptText } from '../../drivers/run/harness';
import type { FinalReceipt } from '../../engine/run/receipt';
import type { Ledger } from '../../engine/types';
import { readRegularFileBytes, writeFileAtomicSync } from '../../store';
import type { SessionLedgers } from '../ledger/session-ledgers';
import { runEndingOf } from './ledger';
import { basicUtcMillis } from '../../engine/utc-iso';
import { newestLinkedRun, type LinkedRun } from './session';

const RECEIPT_FILE = 'final-receipt.json';

function sha256(bytes: Buffer): string {
  return createHash('sha256').update(bytes).digest('hex');
}

/** The receipt inside a saved ending whose bytes have `digest`, or null. */
function vouchedReceipt(run: LinkedRun, digest: string): FinalReceipt | null {
  const bytes = readRegularFileBytes(join(run.runDir, RUN_ENDING_FILE));
  if (bytes === undefined || sha256(bytes) !== digest) return null;
  try {
    const saved = JSON.parse(bytes.toString('utf8')) as unknown;
    if (!isObject(saved) || saved.run_id !== run.runId || !isObject(saved.receipt)) return null;
    return saved.receipt as unknown as FinalReceipt;
  } catch {
    return null;
  }
}

/** Renames `name` in the run folder to `.name.untrusted-<stamp>` (kept as evidence). */
function setAside(run: LinkedRun, name: string, stamp: string): string | null {
  const from = join(run.runDir, name);
  if (!existsSync(from)) return null;
  const to = join(run.runDir, `.${name}.untrusted-${stamp}`);
  renameSync(from, to);
  return `${run.runDirRel}/.${name}.untrusted-${stamp}`;
}

/**
 * Settles the newest run of `session` (see the file comment). Returns one line saying what was
 * done, or null when there was nothing to do.
 */
export async function settleLastRun(
  ledgers: SessionLedgers,
  root: string,
  runRootRel: string,
  session: string,
  now: () => Date,
): Promise<string | null> {
  const run = newestLinkedRun(root, runRootRel, session);
  if (!run) return null;
  // An unreadable (or missing) ledger is left to the run's own refusal.
  return ledgers.update<string | null>(
    session,
    (ledger) => (ledger === null ? { result: null } : settle(run, session, ledger, now)),
    { value: null },
  );
}

function settle(run: LinkedRun, session: string, ledger: Ledger, now: () => Date): { result: string | null } {
  const seal = runEndingOf(ledger);
  const receipt = seal && seal.run_id === run.runId ? vouchedReceipt(run, seal.sha256) : null;
  const receiptPath = join(run.runDir, RECEIPT_FILE);
  const onDisk = readRegularFileBytes(receiptPath);
  const stamp = basicUtcMillis(now().getTime());
  if (receipt) {
    const text = receiptText(receipt);
    if (onDisk !== undefined && onDisk.toString('utf8') === text) return { result: null };
    const replaced = onDisk !== undefined ? setAside(run, RECEIPT_FILE, stamp) : null;
    writeFileAtomicSync(receiptPath, [text]);
    return {
      result: replaced
        ? `${session}: run ${run.runId}'s receipt differed from the ending the ledger recorded; put back (the other kept as ${replaced})`
        : `${session}: run ${run.runId} ended (${receipt.stop_reason}) and the ledger has its ending, but it died before writing its receipt; written from the saved ending`,
    };
  }
  if (!run.finished) return { result: null };
  // A receipt with no ending behind it. Only while the run's epoch is still open: a closed one
  // was ended by the ledger's own record (or by a person), and older runs are left alone.
  if (ledger.status !== 'open' || (ledger.epoch ?? 1) !== run.link.epoch) return { result: null };
  const kept = setAside(run, RECEIPT_FILE, stamp);
  setAside(run, RUN_ENDING_FILE, stamp);
  return {
    result: `${session}: run ${run.runId} has a receipt the ledger never recorded (not written by the harness); set aside as ${kept} and the run resumes`,
  };
}
