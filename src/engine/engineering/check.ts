// One entry point for "is this loop-engineering contract admissible": either form in, the
// fields and the findings out. The CLI's `validate`, `open --engineering` and the editor's
// diagnostics all call this, so they can never disagree.
import { isEngineeringJson, readEngineeringJson } from './json-form';
import { parseEngineeringMarkdown, type FieldSpot } from './parse-md';
import { validateEngineering, type EngineeringFinding } from './validate';

export type EngineeringForm = 'markdown' | 'json';

export interface EngineeringCheck {
  form: EngineeringForm;
  fields: Map<string, string>;
  spots: Map<string, FieldSpot>;
  findings: EngineeringFinding[];
}

/** The file name marks the line-grammar form. */
export function isEngineeringMarkdownName(path: string): boolean {
  return path.toLowerCase().endsWith('.loop.md');
}

/** Checks `.loop.md` text. */
export function checkEngineeringMarkdown(text: string, strict: boolean): EngineeringCheck {
  const parsed = parseEngineeringMarkdown(text);
  return {
    form: 'markdown',
    fields: parsed.fields,
    spots: parsed.spots,
    findings: validateEngineering(parsed, strict),
  };
}

/** Checks JSON text already known to parse; null when it is not a loop-engineering contract. */
export function checkEngineeringJson(value: unknown, text: string, strict: boolean): EngineeringCheck | null {
  if (!isEngineeringJson(value)) return null;
  const { contract, typeFindings } = readEngineeringJson(value, text);
  return {
    form: 'json',
    fields: contract.fields,
    spots: contract.spots ?? new Map(),
    findings: [...typeFindings, ...validateEngineering(contract, strict)],
  };
}
