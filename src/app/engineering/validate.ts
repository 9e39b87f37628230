// `validate` over a loop-engineering contract (`*.loop.md`, or JSON with
// `"kind": "loop-engineering"`): read, check, and report as the original validator does
// (exit 0 valid, 1 invalid, 2 missing or unreadable) plus each finding's code, field and line.
import {
  checkEngineeringJson,
  checkEngineeringMarkdown,
  isEngineeringMarkdownName,
  type EngineeringCheck,
} from '../../engine/engineering/check';
import { isEngineeringJson } from '../../engine/engineering/json-form';
import { passSummary } from '../../engine/engineering/validate';
import { EXIT } from '../../engine/refusal';
import type { Finding } from '../../engine/types';
import type { Outcome } from '../outcome';
import { CONTRACT_LIMIT, readTextFile } from '../read-input';

export interface EngineeringFindingView {
  code: string;
  message: string;
  field: string | null;
  line: number | null;
  hint?: string;
}

export interface EngineeringValidatePayload {
  contract: string;
  valid: boolean;
  /** The original's `errors`: each finding's message, in report order. */
  errors: string[];
  findings: EngineeringFindingView[];
}

export interface EngineeringValidateOutcome extends Outcome<EngineeringValidatePayload> {
  /** The original's human report: `PASS loop contract` + summary, or `FAIL loop contract` + findings. */
  report?: string;
}

/** A path as Python's `str(Path(p))` prints it: `./a//b/` → `a/b` (the original echoes it so). */
export function pythonPathText(path: string): string {
  const absolute = path.startsWith('/');
  const parts = path.split('/').filter((p) => p !== '' && p !== '.');
  const joined = parts.join('/');
  if (absolute) return `/${joined}`;
  return joined === '' ? '.' : joined;
}

/** Checks contract text in either form; null when JSON text is not a loop-engineering contract. */
export function checkEngineeringText(text: string, name: string, strict: boolean): EngineeringCheck | null {
  if (isEngineeringMarkdownName(name)) return checkEngineeringMarkdown(text, strict);
  if (!name.toLowerCase().endsWith('.json')) return null;
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return null; // not JSON at all: the work-loop validator reports that
  }
  return checkEngineeringJson(value, text, strict);
}

/**
 * The check of a JSON contract file's text when it is a loop-engineering contract, else null
 * (a work-loop contract, text that is not JSON, or text over the contract size limit, which the
 * work-loop validator reports). The editor calls this to tell the two kinds apart as `validate` does.
 */
export function checkEngineeringJsonText(text: string, strict: boolean): EngineeringCheck | null {
  return isEngineeringJsonText(text) ? checkEngineeringText(text, 'contract.json', strict) : null;
}

/** Whether JSON contract text declares `"kind": "loop-engineering"` (no rule runs). */
export function isEngineeringJsonText(text: string): boolean {
  if (text.length > CONTRACT_LIMIT) return false;
  try {
    return isEngineeringJson(JSON.parse(text));
  } catch {
    return false;
  }
}

/**
 * Validates a loop-engineering contract file. Returns null when `path` is not one, so the
 * caller falls through to the work-loop contract validator.
 */
export function validateEngineeringFile(path: string, strict: boolean): EngineeringValidateOutcome | null {
  const markdown = isEngineeringMarkdownName(path);
  if (!markdown && !path.toLowerCase().endsWith('.json')) return null;
  // A .loop.md keeps its byte-order mark, as the original reads it (JSON.parse refuses one).
  const read = readTextFile(path, CONTRACT_LIMIT, { keepByteOrderMark: markdown });
  if ('error' in read) {
    if (!markdown) return null; // the work-loop validator words its own refusal
    const message =
      read.error === 'no such file'
        ? `contract does not exist: ${path}`
        : read.error === 'is a directory'
          ? `contract is a directory, not a file: ${path}`
          : `${path}: contract file ${read.error}`;
    return { exitCode: EXIT.usage, findings: [{ message }] };
  }
  const check = checkEngineeringText(read.text, path, strict);
  return check ? engineeringOutcome(pythonPathText(path), check) : null;
}

export function engineeringOutcome(label: string, check: EngineeringCheck): EngineeringValidateOutcome {
  const findings = check.findings.map((f) => {
    const view: EngineeringFindingView = { code: f.code, message: f.message, field: f.field, line: f.line };
    if (f.hint) view.hint = f.hint;
    return view;
  });
  const valid = findings.length === 0;
  const payload: EngineeringValidatePayload = {
    contract: label,
    valid,
    errors: findings.map((f) => f.message),
    findings,
  };
  const report = valid
    ? ['PASS loop contract', ...passSummary(check.fields)].join('\n')
    : ['FAIL loop contract', ...findings.map((f) => `- ${f.message}`)].join('\n');
  // stderr: one line per finding, located, for editors' problem matchers and people.
  const located: Finding[] = findings.map((f) => ({
    message: `${label}${f.line !== null ? `:${f.line}` : ''}: ${f.message} [${f.code}]${f.hint ? ` (${f.hint})` : ''}`,
    code: f.code,
  }));
  return { exitCode: valid ? EXIT.ok : EXIT.malformed, payload, findings: located, report };
}
