import { parseTree } from 'jsonc-parser';
import * as vscode from 'vscode';
import {
  CONTRACT_TOO_LARGE,
  validateContractText,
  type ValidatePayload,
} from '../../app/contract-operations';
import { isEngineeringJsonText } from '../../app/engineering-validate';
import { DebouncedDiagnostics, DIAGNOSTIC_SOURCE } from '../diagnostics/debouncedDiagnostics';
import { contractLabel, contractRoot, isContractDocument } from './contractDocuments';
import { locateFindings } from './findingSpan';

/** One engine finding, where it sits in the document it was found in. */
export interface PlacedFinding {
  readonly code: string;
  readonly message: string;
  readonly path: readonly (string | number)[];
  readonly range: vscode.Range;
}

/** What the last validation of one document version found; `parsed` is false for text that is not JSON. */
export interface ContractCheck {
  readonly version: number;
  readonly parsed: boolean;
  readonly payload?: ValidatePayload;
  readonly findings: readonly PlacedFinding[];
  /** Set when the file declares the other kind (EngineeringDiagnostics judges it, not this). */
  readonly kind?: 'loop-engineering';
}

/**
 * The engine's contract findings as diagnostics (the JSON schema gives structure; this gives
 * meaning). Validation runs on open, debounced while typing, and is cleared when the document
 * closes. It only reads: program resolution stats PATH and never runs anything, so it also runs
 * in an untrusted workspace.
 */
export class ContractDiagnostics extends DebouncedDiagnostics<ContractCheck> {
  constructor(debounceMs = 300) {
    super(
      {
        collection: 'loopLedger.contract',
        accepts: isContractDocument,
        check: checkContract,
        toDiagnostics: (_document, check) => check.findings.map(toDiagnostic),
      },
      debounceMs,
    );
  }
}

/**
 * How many findings become diagnostics. A machine-made contract can carry thousands; past this
 * the Problems panel is no help, and one more diagnostic says how many were left out.
 */
export const MAX_SHOWN_FINDINGS = 200;

function checkContract(document: vscode.TextDocument): ContractCheck {
  const text = document.getText();
  // `"kind": "loop-engineering"` makes it the other kind: EngineeringDiagnostics judges it.
  if (isEngineeringJsonText(text))
    return { version: document.version, parsed: true, kind: 'loop-engineering', findings: [] };
  const outcome = validateContractText(contractRoot(document.uri), text, contractLabel(document.uri));
  const payload = outcome.payload;
  const tooLarge = outcome.findings.find((f) => f.code === CONTRACT_TOO_LARGE);
  if (tooLarge) {
    // One diagnostic on the first character; nothing of the text was parsed or walked.
    const range = new vscode.Range(document.positionAt(0), document.positionAt(1));
    const finding = { code: CONTRACT_TOO_LARGE, message: tooLarge.message, path: [], range };
    return { version: document.version, parsed: false, findings: [finding] };
  }
  // Text that is not JSON gets no semantic findings: the JSON language service already marks
  // the syntax error, and a path into unparsable text has no range.
  if (!payload) return { version: document.version, parsed: false, findings: [] };
  const shown = payload.findings
    .slice(0, MAX_SHOWN_FINDINGS)
    .map((f) => ({ ...f, code: f.code ?? 'contract' }));
  const spans = locateFindings(parseTree(text), shown);
  const findings: PlacedFinding[] = shown.map((finding, i) => {
    const span = spans[i]!;
    const range = new vscode.Range(
      document.positionAt(span.offset),
      document.positionAt(span.offset + span.length),
    );
    return { code: finding.code, message: finding.message, path: finding.path, range };
  });
  const hidden = payload.findings.length - shown.length;
  if (hidden > 0) {
    findings.push({
      code: MORE_FINDINGS,
      message: vscode.l10n.t(
        '{0} more findings are not shown; `loop-ledger validate` lists every one.',
        hidden,
      ),
      path: [],
      range: new vscode.Range(document.positionAt(0), document.positionAt(1)),
    });
  }
  return { version: document.version, parsed: true, payload, findings };
}

/** The code of the diagnostic that counts the findings past MAX_SHOWN_FINDINGS. */
export const MORE_FINDINGS = 'more-findings';

function toDiagnostic(finding: PlacedFinding): vscode.Diagnostic {
  const diagnostic = new vscode.Diagnostic(finding.range, finding.message, vscode.DiagnosticSeverity.Error);
  diagnostic.source = DIAGNOSTIC_SOURCE;
  diagnostic.code = finding.code;
  return diagnostic;
}
