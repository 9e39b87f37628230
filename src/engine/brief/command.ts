// `brief`: check the inputs, check the diff against the declared scope, assemble the packet
// and arm it as the ledger's single pending brief. The shell reads the files; we get text (or,
// for the diff, its bytes) or the reason it could not be read.
import { deriveBaseline } from '../baseline';
import { EXIT, isRefusal, refuse } from '../refusal';
import type { Refusal } from '../refusal';
import type { Ledger } from '../types';
import { briefId } from './brief-id';
import { declaredPaths } from './change-scope';
import { scopeCoverage } from './coverage';
import { diffPaths } from './diff-paths';
import { withoutOwnDeclared, withoutOwnSections } from './own-writes';
import { assemblePacket } from './packet';
import type { BriefPacket, BriefScope, DiffText } from './packet';
import { isPyBlank, pyUniversalNewlines, sortedUnique } from '../python-text';
import { Utf8Diff } from './utf8-diff';

/** One input file as the shell found it: its text, or why it could not be read. */
export type BriefInput = { path: string; text: string } | { path: string; error: string };

/**
 * The diff may also come as bytes (`utf8`): valid UTF-8 with the leading byte-order mark the text
 * decoder strips already removed (read-input.ts readUtf8File), and `ascii` when the reader knows
 * whether every byte is ASCII. Such a diff is read without ever becoming one string, and reads
 * exactly as its decoded text would.
 */
export type DiffInput = BriefInput | { path: string; utf8: Uint8Array; ascii?: boolean };

export interface BriefInputs<Diff extends DiffInput = BriefInput> {
  diff: Diff;
  verification: BriefInput;
  changeScope?: BriefInput;
  /**
   * The workspace root's path inside the repository the diff comes from (`sub/dir/`, or `''`
   * at its top, the default): where Loop Ledger's own `.loop/` writes, left out, live.
   */
  ownPrefix?: string;
}

export interface BriefResult<Diff extends DiffText = string> {
  ledger: Ledger;
  payload: BriefPacket<Diff>;
}

interface NamedInput {
  label: string;
  flag: string;
  input: DiffInput;
}

/**
 * An input's text as Python's text mode reads it (see pyUniversalNewlines), or the refusal that
 * names it. A diff given as bytes stays bytes (a Utf8Diff, decoded a chunk at a time).
 */
function readInput({ label, flag, input }: NamedInput): DiffText | Refusal {
  if ('error' in input) {
    return refuse(EXIT.unreadableInput, [
      {
        code: 'brief-input-unreadable',
        message: `${flag} ${input.path}: the ${label} cannot be read (${input.error}) — a packet missing it would have the critic judge something it never saw`,
      },
    ]);
  }
  const text =
    'utf8' in input ? new Utf8Diff(input.utf8, { ascii: input.ascii }) : pyUniversalNewlines(input.text);
  if (isBlank(text)) {
    return refuse(EXIT.unreadableInput, [
      {
        code: 'brief-input-empty',
        message: `${flag} ${input.path}: the ${label} is empty — a critic pass over nothing is a verdict about nothing`,
      },
    ]);
  }
  return text;
}

/** Python's `not text.strip()`; a chunked text is blank when every chunk is. */
function isBlank(text: DiffText): boolean {
  if (typeof text === 'string') return isPyBlank(text);
  for (const chunk of text.chunks()) if (!isPyBlank(chunk)) return false;
  return true;
}

/** A text input (only the diff may be bytes, so only the diff may come back chunked). */
function readTextInput(named: NamedInput & { input: BriefInput }): string | Refusal {
  return readInput(named) as string | Refusal;
}

/**
 * Assemble the critic packet for a ledger. Refuses with 8 when an input is unreadable or
 * blank (the first one, in the order diff, verification, change scope), and with 9 when the
 * change scope names no path or names a path the diff does not cover (every one listed).
 * On success the returned ledger is a copy whose `pending_brief` names this packet; the
 * ledger's status is not checked, so a closed ledger still gets a brief.
 */
export function brief(ledger: Ledger, inputs: BriefInputs): BriefResult | Refusal;
export function brief(ledger: Ledger, inputs: BriefInputs<DiffInput>): BriefResult<DiffText> | Refusal;
export function brief(ledger: Ledger, inputs: BriefInputs<DiffInput>): BriefResult<DiffText> | Refusal {
  // Loop Ledger's own writes (a tracked ledger the last brief rewrote) are not the change.
  const prefix = inputs.ownPrefix ?? '';
  const own = 'error' in inputs.diff ? null : withoutOwnSections(inputs.diff, prefix);
  const leftOut = own?.leftOut ?? [];
  // Read in order: only the first unreadable or empty input is reported.
  const diff = readInput({ label: 'diff', flag: '--diff-file', input: own?.diff ?? inputs.diff });
  if (isRefusal(diff)) {
    if (leftOut.length === 0 || diff.findings[0]?.code !== 'brief-input-empty') return diff;
    return refuse(EXIT.unreadableInput, [
      {
        code: 'brief-input-only-own-writes',
        message: `--diff-file ${inputs.diff.path}: the diff holds only Loop Ledger's own writes (${leftOut.join(', ')}) — with them left out there is no change for the critic to judge`,
      },
    ]);
  }
  const verification = readTextInput({
    label: 'verification output',
    flag: '--verification-file',
    input: inputs.verification,
  });
  if (isRefusal(verification)) return verification;
  let scopeText: string | undefined;
  if (inputs.changeScope) {
    const read = readTextInput({ label: 'change scope', flag: '--change-scope', input: inputs.changeScope });
    if (isRefusal(read)) return read;
    scopeText = read;
  }

  const present = diffPaths(diff);
  let scope: BriefScope = {
    provenance: 'unverified',
    declared_paths: null,
    diff_paths: present,
    undeclared_paths: [],
  };
  if (scopeText !== undefined) {
    const scoped = withoutOwnDeclared(declaredPaths(scopeText), prefix);
    const declared = scoped.declared;
    leftOut.push(...scoped.leftOut);
    if (declared.length === 0 && scoped.leftOut.length > 0) {
      return refuse(EXIT.scopeNotCovered, [
        {
          code: 'scope-only-own-writes',
          message: `--change-scope ${inputs.changeScope?.path ?? ''}: names only Loop Ledger's own writes (${scoped.leftOut.join(', ')}) — with them left out it declares nothing to vouch for the diff`,
        },
      ]);
    }
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
    leftOut: sortedUnique(leftOut),
  });
  return { ledger: { ...ledger, pending_brief: { brief_id: id } }, payload };
}
