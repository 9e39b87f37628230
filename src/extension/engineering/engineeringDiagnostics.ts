import * as vscode from 'vscode';
import { checkEngineeringJsonText } from '../../app/engineering/validate';
import { checkEngineeringMarkdown, type EngineeringCheck } from '../../engine/engineering/check';
import type { EngineeringFinding } from '../../engine/engineering/validate';
import { DebouncedDiagnostics, DIAGNOSTIC_SOURCE } from '../diagnostics/debouncedDiagnostics';
import { isEngineeringDocument, mayHoldEngineeringJson, strictByDefault } from './engineeringDocuments';

/** The last check of one document version (the quick fixes read its findings and spots). */
export interface EngineeringDocumentCheck extends EngineeringCheck {
  readonly version: number;
}

/**
 * The engine's loop-engineering findings on `.loop.md` files and on JSON contracts whose `kind`
 * is loop-engineering, on the exact field: rules the original always applies are errors, `--strict`-only rules warnings (errors with the
 * `loopLedger.engineering.strict` setting). The same engine call as `loop-ledger validate
 * --strict`, so the two cannot disagree. It only reads, so it runs in untrusted workspaces too.
 */
export class EngineeringDiagnostics extends DebouncedDiagnostics<EngineeringDocumentCheck> {
  constructor(debounceMs = 300) {
    super(
      {
        collection: 'loopLedger.engineering',
        configurationSection: 'loopLedger.engineering',
        accepts: (document) => isEngineeringDocument(document) || mayHoldEngineeringJson(document),
        check: (document) => ({ ...checkDocument(document), version: document.version }),
        toDiagnostics: (document, check) => {
          const strictErrors = strictByDefault(document.uri);
          return check.findings.map((f) => toDiagnostic(document, check, f, strictErrors));
        },
      },
      debounceMs,
    );
  }
}

/**
 * VS Code hides a file's byte-order mark from the text (it is the `utf8bom` encoding); the CLI
 * sees it, as the original did. Put it back so both judge the same text, then shift line 0's
 * columns back to the editor's.
 */
function checkDocument(document: vscode.TextDocument): EngineeringCheck {
  if (!isEngineeringDocument(document)) {
    // A JSON file: judged only while its `kind` says loop-engineering (editing the kind switches).
    const check = checkEngineeringJsonText(document.getText(), true);
    return check ?? { form: 'json', fields: new Map(), spots: new Map(), findings: [] };
  }
  const bom = document.encoding === 'utf8bom';
  const check = checkEngineeringMarkdown(`${bom ? '\ufeff' : ''}${document.getText()}`, true);
  if (!bom) return check;
  for (const spot of check.spots.values()) {
    if (spot.line !== 0) continue;
    spot.nameStart = Math.max(0, spot.nameStart - 1);
    spot.nameEnd = Math.max(0, spot.nameEnd - 1);
    spot.valueStart = Math.max(0, spot.valueStart - 1);
    spot.valueEnd = Math.max(0, spot.valueEnd - 1);
  }
  return check;
}

/** Where a finding sits: its field (name through value) when written, else the first line. */
export function findingRange(
  document: vscode.TextDocument,
  check: EngineeringCheck,
  finding: EngineeringFinding,
): vscode.Range {
  const field = [...check.spots.keys()].find((k) => k.replace(/[ -]/g, '_') === finding.field);
  const spot = field === undefined ? undefined : check.spots.get(field);
  if (spot)
    return new vscode.Range(spot.line, spot.nameStart, spot.line, Math.max(spot.valueEnd, spot.nameEnd));
  if (finding.line !== null) return document.lineAt(finding.line - 1).range;
  return document.lineCount > 0 ? document.lineAt(0).range : new vscode.Range(0, 0, 0, 0);
}

function toDiagnostic(
  document: vscode.TextDocument,
  check: EngineeringCheck,
  finding: EngineeringFinding,
  strictErrors: boolean,
): vscode.Diagnostic {
  const severity =
    finding.strict && !strictErrors ? vscode.DiagnosticSeverity.Warning : vscode.DiagnosticSeverity.Error;
  const message = finding.hint ? `${finding.message} (${finding.hint})` : finding.message;
  const diagnostic = new vscode.Diagnostic(findingRange(document, check, finding), message, severity);
  diagnostic.source = DIAGNOSTIC_SOURCE;
  diagnostic.code = finding.code;
  return diagnostic;
}
