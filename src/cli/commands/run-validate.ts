// `loop-ledger validate FILE` over a harness receipt: a JSON object whose `schema` is
// `loop.final_receipt.v1` gets the receipt rules (the original validate_loop_receipt.py's, with
// booleans refused as integers); anything else is left to the contract validator.
import { readTextFile } from '../../app/read-input';
import { FINAL_RECEIPT_SCHEMA, validateFinalReceipt, validSummary } from '../../engine/harness/receipt';
import type { CommandOutcome } from '../outcome';

const RECEIPT_LIMIT = 64 * 1024 * 1024;

/** The receipt's validation, or null when FILE is not a receipt (unreadable, not JSON, other schema). */
export function receiptValidation(path: string): CommandOutcome | null {
  // The project's capped reader: a huge file is refused by its size, never read whole first.
  const read = readTextFile(path, RECEIPT_LIMIT, { keepByteOrderMark: true });
  if ('error' in read || !read.text.includes(FINAL_RECEIPT_SCHEMA)) return null;
  let data: unknown;
  try {
    data = JSON.parse(read.text) as unknown;
  } catch {
    return null;
  }
  if (data === null || typeof data !== 'object' || Array.isArray(data)) return null;
  const receipt = data as Record<string, unknown>;
  if (receipt.schema !== FINAL_RECEIPT_SCHEMA) return null;
  const errors = validateFinalReceipt(receipt);
  const payload = { file: path, kind: FINAL_RECEIPT_SCHEMA, valid: errors.length === 0, findings: errors };
  if (errors.length === 0) return { exitCode: 0, payload, findings: [], human: validSummary(receipt, true) };
  return {
    exitCode: 1,
    payload,
    findings: [{ message: `${path}: LOOP RECEIPT INVALID` }, ...errors.map((e) => ({ message: `- ${e}` }))],
  };
}
