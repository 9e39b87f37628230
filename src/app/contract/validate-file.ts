// `validate FILE`: one capped read of FILE, whatever it is (a regular file, a pipe, /dev/stdin, a
// FIFO), then a dispatch on the text — a harness receipt by its `schema` (or the older receipt
// format by its shape), a loop-engineering contract by its `.loop.md` name or its `kind`, and
// anything else the work-loop contract rules. Each validator takes the text; none reads again.
import { isEngineeringMarkdownName, checkEngineeringJson } from '../../engine/engineering/check';
import { isLegacyReceiptShape, validateLegacyReceipt } from '../../engine/run/legacy-receipt';
import { FINAL_RECEIPT_SCHEMA, validateFinalReceipt } from '../../engine/run/receipt';
import { isObject } from '../../engine/json-object';
import { EXIT } from '../../engine/refusal';
import { validateContractText, type ValidatePayload } from './operations';
import {
  engineeringOutcome,
  pythonPathText,
  validateEngineeringFile,
  type EngineeringValidateOutcome,
} from '../engineering/validate';
import type { Outcome } from '../outcome';
import { CONTRACT_LIMIT, overLimitReason, readTextFile } from '../read-input';

/** A receipt may be large (every check's excerpts); anything else is held to CONTRACT_LIMIT. */
export const RECEIPT_LIMIT = 64 * 1024 * 1024;

/** The payload `kind` of a receipt in the older format (it has no `schema` of its own). */
export const LEGACY_RECEIPT_KIND = 'loop-receipt (older format, no schema)';

export interface ReceiptValidatePayload {
  file: string;
  kind: string;
  valid: boolean;
  findings: string[];
}

export type ValidatedFile =
  | { kind: 'receipt'; data: Record<string, unknown>; payload: ReceiptValidatePayload }
  | { kind: 'engineering'; outcome: EngineeringValidateOutcome }
  | { kind: 'contract'; outcome: Outcome<ValidatePayload> };

const BOM = '\uFEFF';

function parsed(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined; // not JSON (or nested past the parser): the contract rules word it
  }
}

function contractRefusal(path: string, reason: string): ValidatedFile {
  return {
    kind: 'contract',
    outcome: { exitCode: EXIT.usage, findings: [{ message: `${path}: contract file ${reason}` }] },
  };
}

function receipt(
  path: string,
  data: Record<string, unknown>,
  kind: string,
  findings: string[],
): ValidatedFile {
  return { kind: 'receipt', data, payload: { file: path, kind, valid: findings.length === 0, findings } };
}

export function validateFileOp(root: string, path: string, strict: boolean): ValidatedFile {
  // A `.loop.md` is a loop-engineering contract by its name: its validator reads it (once).
  if (isEngineeringMarkdownName(path))
    return {
      kind: 'engineering',
      outcome: validateEngineeringFile(path, strict) as EngineeringValidateOutcome,
    };

  // `-` is standard input, as for most command-line tools (the original took only a path).
  const read = readTextFile(path === '-' ? '/dev/stdin' : path, RECEIPT_LIMIT, { keepByteOrderMark: true });
  if ('error' in read) {
    // Too big even for a receipt: refused as a contract over its own cap, as before.
    const reason = read.tooLarge ? overLimitReason(CONTRACT_LIMIT, read.tooLarge.size) : read.error;
    return contractRefusal(path, reason);
  }
  // A receipt with a byte-order mark is not JSON to the original validator: no receipt then.
  const bom = read.text.startsWith(BOM);
  const text = bom ? read.text.slice(1) : read.text;
  const value = parsed(text);
  if (!bom && isObject(value)) {
    if (value.schema === FINAL_RECEIPT_SCHEMA)
      return receipt(path, value, FINAL_RECEIPT_SCHEMA, validateFinalReceipt(value));
    if (isLegacyReceiptShape(value))
      return receipt(path, value, LEGACY_RECEIPT_KIND, validateLegacyReceipt(value));
  }
  if (read.bytes > CONTRACT_LIMIT)
    return contractRefusal(path, overLimitReason(CONTRACT_LIMIT, read.regular ? read.bytes : null));
  const engineering = value === undefined ? null : checkEngineeringJson(value, text, strict);
  if (engineering)
    return { kind: 'engineering', outcome: engineeringOutcome(pythonPathText(path), engineering) };
  return { kind: 'contract', outcome: validateContractText(root, text, path) };
}
