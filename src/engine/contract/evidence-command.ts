// Static checks on a rubric dimension's evidence command. Nothing
// here runs the command: the engine never spawns a process, and whether a program exists is
// answered by the caller's `resolveProgram` (PATH, an absolute path, or a file under the root).
import { split } from 'shlex';
import type { Finding } from '../types';
import { isPyBlank } from '../python-text';
import { findPlaceholders } from './placeholder';

/** Answers "could this word start a process?" — injected so the engine stays free of I/O. */
export type ProgramResolver = (word: string) => boolean;

/**
 * Where one command ends and the next begins. A plain textual split, deliberately blind to
 * quoting, as the original engine does it: a `|` inside quotes splits too.
 */
const SEGMENT_BREAK = /\|\||&&|[|;]/;

/** `LC_ALL=C bash x.sh` starts bash: environment assignments in front of the program are skipped. */
const ASSIGNMENT_WORD = /^[A-Za-z_][A-Za-z0-9_]*=/;

const FIELD = 'evidence_command';

function finding(code: string, message: string): Finding {
  return { code, message: `${FIELD}: ${message}`, path: [FIELD] };
}

/**
 * The static findings for one evidence command, in the reference's order: placeholders, then
 * each segment's program. A segment that cannot be tokenised ends the scan (its later segments
 * are not looked at). Arguments are never checked — only each segment's program word.
 *
 * Every finding's message starts with `evidence_command:` and its path is `['evidence_command']`;
 * a caller that knows where the command sits prefixes both.
 */
export function checkEvidenceCommand(command: string, resolveProgram: ProgramResolver): Finding[] {
  const findings: Finding[] = [];

  const placeholders = findPlaceholders(command);
  if (placeholders.length > 0) {
    const shown = placeholders.map((text) => JSON.stringify(text)).join(', ');
    findings.push(
      finding(
        'placeholder',
        `carries an unresolved placeholder (${shown}) — a command that cannot run as written was never ` +
          'run, so its baseline is a guess; put the real value in',
      ),
    );
  }

  for (const segment of command.split(SEGMENT_BREAK)) {
    if (isPyBlank(segment)) continue;
    let words: string[];
    try {
      words = split(segment);
    } catch (error) {
      const reason = error instanceof Error ? error.message : String(error);
      findings.push(
        finding(
          'unparsable-command',
          `cannot be parsed as a shell command (${reason} in ${JSON.stringify(segment.trim())}) — nothing could have run it`,
        ),
      );
      return findings;
    }
    const program = words.find((word) => !ASSIGNMENT_WORD.test(word));
    if (program === undefined || resolveProgram(program)) continue;
    findings.push(
      finding(
        'program-not-found',
        `names the program ${JSON.stringify(program)}, which is neither on PATH nor a file at that path ` +
          'or under the root — a command that cannot start produced no number',
      ),
    );
  }
  return findings;
}
