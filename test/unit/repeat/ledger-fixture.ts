// An opened ledger for the repeat engine tests (the engine's own open, no files).
import { isRefusal } from '../../../src/engine/refusal';
import { open } from '../../../src/engine/open';
import { startRepeat } from '../../../src/engine/repeat/ledger';
import type { RepeatState } from '../../../src/engine/repeat/state';
import type { Ledger } from '../../../src/engine/types';
import { sampleContract } from '../helpers/cli';

export const NOW = new Date('2026-12-01T00:00:00Z');

export function openedLedger(iterationLimit = 1000): Ledger {
  const opened = open({
    session: 'rep',
    existing: null,
    contract: sampleContract({ iteration_limit: iterationLimit }),
    stallThreshold: 3,
    force: false,
    baselineEvidence: [],
    now: NOW,
    resolveProgram: () => true,
  });
  if (isRefusal(opened)) throw new Error(opened.findings.map((f) => f.message).join('; '));
  return opened.ledger;
}

export function startedRepeat(
  max: number | null = null,
  iterationLimit = 1000,
): { ledger: Ledger; state: RepeatState } {
  const started = startRepeat(openedLedger(iterationLimit), {
    inner: 'tidy',
    followUp: null,
    max,
    recipe: 'fs',
    scope: [],
    exclude: [],
    summaryFile: null,
    startState: 'S0',
  });
  if (isRefusal(started)) throw new Error(started.findings.map((f) => f.message).join('; '));
  return started;
}
