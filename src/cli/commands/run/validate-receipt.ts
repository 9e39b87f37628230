// How `loop-ledger validate` reports a harness receipt (`loop.final_receipt.v1`, or the older
// format without a `schema`): the original validate_loop_receipt.py's words — `LOOP RECEIPT VALID`
// with its summary on stdout, or `LOOP RECEIPT INVALID` and one `- <error>` line each on stderr.
import type { ReceiptValidatePayload } from '../../../app/contract/validate-file';
import { validSummary } from '../../../engine/run/receipt';
import type { CommandOutcome } from '../../outcome';

export function receiptOutcome(
  data: Record<string, unknown>,
  payload: ReceiptValidatePayload,
): CommandOutcome {
  if (payload.valid) return { exitCode: 0, payload, findings: [], human: validSummary(data, true) };
  return {
    exitCode: 1,
    payload,
    findings: [
      { message: `${payload.file}: LOOP RECEIPT INVALID` },
      ...payload.findings.map((e) => ({ message: `- ${e}` })),
    ],
  };
}
