// `brief`: check the inputs, check the diff against the declared scope, assemble the packet
// and arm it as the ledger's single pending brief. The shell reads the files; we get text
// or the reason it could not be read.
import { deriveBaseline } from '../baseline';
import { EXIT, refuse } from '../refusal';
import type { Refusal } from '../refusal';
import type { Ledger } from '../types';
import { briefId } from './brief-id';
import { declaredPaths } from './change-scope';
import { scopeCoverage } from './coverage';
import { diffPaths } from './diff-paths';
import { assemblePacket } from './packet';
import type { BriefPacket, BriefScope } from './packet';
import { isPyBlank } from '../python-text';

/** One input file as the shell found it: its text, or why it could not be read. */
export type BriefInput = { path: string; text: string } | { path: string; error: string };

export interface BriefInputs {
  diff: BriefInput;
  verification: BriefInput;
  changeScope?: BriefInput;
}

export interface BriefResult {
  ledger: Ledger;
  payload: BriefPacket;
}

interface NamedInput {
  label: string;
  flag: string;
  input: BriefInput;
}

/**
 * The original engine read its inputs in text mode, where Python turns \r\n and lone \r
 * into \n. Doing the same here keeps brief ids equal for files with Windows line endings,
 * whichever shell read them.
 */
function universalNewlines(text: string): string {
  return text.includes('\r') ? text.replace(/\r\n?/g, '\n') : text;
}

/** The text of each input in order, or a refusal naming the first one that fails. */
function readInputs(inputs: NamedInput[]): string[] | Refusal {
  const texts: string[] = [];
  for (const { label, flag, input } of inputs) {
    if ('error' in input) {
      return refuse(EXIT.unreadableInput, [
        {
          code: 'brief-input-unreadable',
          message: `${flag} ${input.path}: the ${label} cannot be read (${input.error}) — a packet missing it would have the critic judge something it never saw`,
        },
      ]);
    }
    if (isPyBlank(input.text)) {
      return refuse(EXIT.unreadableInput, [
        {
          code: 'brief-input-empty',
          message: `${flag} ${input.path}: the ${label} is empty — a critic pass over nothing is a verdict about nothing`,
        },
      ]);
    }
    texts.push(universalNewlines(input.text));
  }
  return texts;
}

/**
 * Assemble the critic packet for a ledger. Refuses with 8 when an input is unreadable or
 * blank (the first one, in the order diff, verification, change scope), and with 9 when the
 * change scope names no path or names a path the diff does not cover (every one listed).
 * On success the returned ledger is a copy whose `pending_brief` names this packet; the
 * ledger's status is not checked, so a closed ledger still gets a brief.
 */
export function brief(ledger: Ledger, inputs: BriefInputs): BriefResult | Refusal {
  const named: NamedInput[] = [
    { label: 'diff', flag: '--diff-file', input: inputs.diff },
    { label: 'verification output', flag: '--verification-file', input: inputs.verification },
  ];
  if (inputs.changeScope)
    named.push({ label: 'change scope', flag: '--change-scope', input: inputs.changeScope });
  const texts = readInputs(named);
  if (!Array.isArray(texts)) return texts;
  const [diff = '', verification = '', scopeText] = texts;

  const present = diffPaths(diff);
  let scope: BriefScope = {
    provenance: 'unverified',
    declared_paths: null,
    diff_paths: present,
    undeclared_paths: [],
  };
  if (scopeText !== undefined) {
    const declared = declaredPaths(scopeText);
    if (declared.length === 0) {
      return refuse(EXIT.scopeNotCovered, [
        {
          code: 'scope-no-paths',
          message: `--change-scope ${inputs.changeScope?.path ?? ''}: names no paths — expected the output of \`git show --stat\` or \`--name-only\`; a transcript that declares nothing cannot vouch for the diff`,
        },
      ]);
    }
    const { findings, undeclared } = scopeCoverage(declared, present);
    if (findings.length > 0) return refuse(EXIT.scopeNotCovered, findings);
    scope = {
      provenance: 'verified',
      declared_paths: declared,
      diff_paths: present,
      undeclared_paths: undeclared,
    };
  }

  const rubric = ledger.contract.quality_rubric ?? [];
  const id = briefId({ diff, verification, rubric, scope: scope.declared_paths });
  const payload = assemblePacket({
    briefId: id,
    rubric,
    baseline: deriveBaseline(ledger),
    diff,
    verification,
    scope,
  });
  return { ledger: { ...ledger, pending_brief: { brief_id: id } }, payload };
}
