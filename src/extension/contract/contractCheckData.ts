// What the contract editor shows for one text, as plain data (no `vscode`): the engine's findings,
// each with the offset and length of the text it marks, at most MAX_SHOWN_FINDINGS of them plus a
// count of the rest. It runs on the extension host for a small contract and in a worker thread for
// a large one (contractCheckWorker.ts), so the host turns only offsets into ranges.
import { parseTree } from 'jsonc-parser';
import { CONTRACT_TOO_LARGE, validateContractText } from '../../app/contract/operations';
import { locateFindings } from './findingSpan';

/**
 * How many findings become diagnostics. A machine-made contract can carry thousands; past this
 * the Problems panel is no help, and one more diagnostic says how many were left out.
 */
export const MAX_SHOWN_FINDINGS = 200;

export interface PlacedFindingData {
  readonly code: string;
  readonly message: string;
  readonly path: readonly (string | number)[];
  readonly offset: number;
  readonly length: number;
}

export interface ContractCheckData {
  /** False for text that is not JSON (or too large to parse): no semantic findings then. */
  readonly parsed: boolean;
  /** The one finding of a text over the CLI's cap, marked on the first character. */
  readonly tooLarge?: string;
  /** Rubric dimensions of a valid contract. */
  readonly dimensions: number | null;
  readonly shown: readonly PlacedFindingData[];
  /** Findings past MAX_SHOWN_FINDINGS (counted, not located). */
  readonly hidden: number;
}

export function computeContractCheck(root: string, text: string, label: string): ContractCheckData {
  const outcome = validateContractText(root, text, label);
  const tooLarge = outcome.findings.find((f) => f.code === CONTRACT_TOO_LARGE);
  if (tooLarge) return { parsed: false, tooLarge: tooLarge.message, dimensions: null, shown: [], hidden: 0 };
  const payload = outcome.payload;
  // Text that is not JSON gets no semantic findings: the JSON language service already marks
  // the syntax error, and a path into unparsable text has no range.
  if (!payload) return { parsed: false, dimensions: null, shown: [], hidden: 0 };
  const shown = payload.findings
    .slice(0, MAX_SHOWN_FINDINGS)
    .map((f) => ({ code: f.code ?? 'contract', message: f.message, path: f.path }));
  const spans = locateFindings(shown.length > 0 ? parseTree(text) : undefined, shown);
  return {
    parsed: true,
    dimensions: payload.dimensions,
    shown: shown.map((finding, i) => ({ ...finding, offset: spans[i]!.offset, length: spans[i]!.length })),
    hidden: payload.findings.length - shown.length,
  };
}
