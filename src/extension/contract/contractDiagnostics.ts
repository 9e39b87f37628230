import * as vscode from 'vscode';
import { CONTRACT_TOO_LARGE } from '../../app/contract/operations';
import { isEngineeringJsonText } from '../../app/engineering/validate';
import { DebouncedDiagnostics, DIAGNOSTIC_SOURCE } from '../diagnostics/debouncedDiagnostics';
import { contractLabel, contractRoot, isContractDocument } from './contractDocuments';
import { ContractCheckRunner } from './contractCheckRunner';

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
  /** Rubric dimensions of a valid contract. */
  readonly dimensions?: number | null;
  readonly findings: readonly PlacedFinding[];
  /** Set when the file declares the other kind (EngineeringDiagnostics judges it, not this). */
  readonly kind?: 'loop-engineering';
}

/**
 * The engine's contract findings as diagnostics (the JSON schema gives structure; this gives
 * meaning). Validation runs on open, debounced while typing, and is cleared when the document
 * closes. It only reads: program resolution stats PATH and never runs anything, so it also runs
 * in an untrusted workspace. A large contract is checked in a worker thread (contractCheckRunner.ts)
 * so the extension host keeps answering while it is parsed and validated.
 */
export class ContractDiagnostics extends DebouncedDiagnostics<ContractCheck> {
  constructor(runner: ContractCheckRunner = new ContractCheckRunner(undefined), debounceMs = 300) {
    super(
      {
        collection: 'loopLedger.contract',
        accepts: isContractDocument,
        check: (document) => checkContract(runner, document),
        toDiagnostics: (_document, check) => check.findings.map(toDiagnostic),
      },
      debounceMs,
    );
    this.runner = runner;
  }

  private readonly runner: ContractCheckRunner;

  override dispose(): void {
    super.dispose();
    this.runner.dispose();
  }
}

async function checkContract(
  runner: ContractCheckRunner,
  document: vscode.TextDocument,
): Promise<ContractCheck> {
  const version = document.version;
  // `"kind": "loop-engineering"` makes it the other kind: EngineeringDiagnostics judges it.
  if (isEngineeringJsonText(document.getText()))
    return { version, parsed: true, kind: 'loop-engineering', findings: [] };
  const data = await runner.check(
    contractRoot(document.uri),
    document.getText(),
    contractLabel(document.uri),
  );
  const first = () => new vscode.Range(document.positionAt(0), document.positionAt(1));
  if (data.tooLarge !== undefined) {
    // One diagnostic on the first character; nothing of the text was parsed or walked.
    return {
      version,
      parsed: false,
      findings: [{ code: CONTRACT_TOO_LARGE, message: data.tooLarge, path: [], range: first() }],
    };
  }
  if (!data.parsed) return { version, parsed: false, findings: [] };
  // The document may have changed while the worker ran: this check is for `version`, and the
  // base class drops it unless that is still the document's version.
  const findings: PlacedFinding[] = data.shown.map((f) => ({
    code: f.code,
    message: f.message,
    path: f.path,
    range: new vscode.Range(document.positionAt(f.offset), document.positionAt(f.offset + f.length)),
  }));
  if (data.hidden > 0) {
    findings.push({
      code: MORE_FINDINGS,
      message: vscode.l10n.t(
        '{0} more findings are not shown; `loop-ledger validate` lists every one.',
        data.hidden,
      ),
      path: [],
      range: first(),
    });
  }
  return { version, parsed: true, dimensions: data.dimensions, findings };
}

/** The code of the diagnostic that counts the findings past MAX_SHOWN_FINDINGS (contractCheckData.ts). */
export const MORE_FINDINGS = 'more-findings';

function toDiagnostic(finding: PlacedFinding): vscode.Diagnostic {
  const diagnostic = new vscode.Diagnostic(finding.range, finding.message, vscode.DiagnosticSeverity.Error);
  diagnostic.source = DIAGNOSTIC_SOURCE;
  diagnostic.code = finding.code;
  return diagnostic;
}
