// `close` over a loop-engineering ledger: the core close, except that `close --outcome complete`
// would claim success with no iteration, no verifier and no evidence (success is a
// verified result). Such a loop completes only through `iterate --outcome complete` (completion.ts).
import { close, type CloseInput } from '../close';
import { EXIT, refuse } from '../refusal';
import type { Ledger } from '../types';

export function closeEngineering(ledger: Ledger, input: CloseInput): ReturnType<typeof close> {
  const engineering = (ledger as { engineering?: unknown }).engineering;
  if (
    ledger.status === 'open' &&
    input.outcome === 'complete' &&
    engineering !== undefined &&
    engineering !== null
  ) {
    return refuse(EXIT.malformed, [
      {
        message: `close --outcome complete: ${ledger.session} runs under a loop-engineering contract, which completes only on a verified iteration (iterate --outcome complete with a passing verifier and --evidence-path)`,
        code: 'complete-unverified',
      },
    ]);
  }
  return close(ledger, input);
}
