// The project's run mode as the original's project-state reader takes it from
// `<project>/project_state.md`: the first `**Run Mode:** <value>` line (the key's initials in
// either case), lower-cased with all whitespace removed. A line whose value is not
// interactive|autonomous, or no line at all, reads as `interactive` — never autonomous, and
// interactive still needs the operator's confirm. (When the file has no such line, a frontmatter
// `runMode`/`run_mode` is honoured too; see modeFrom in the CLI.)

const RUN_MODE_LINE = /^\*\*[Rr]un [Mm]ode:\*\*[ \t\v\f\r]*(.*)$/;

/** The line's normalised value, or undefined when the file has no `**Run Mode:**` line. */
export function runModeLine(text: string): 'interactive' | 'autonomous' | undefined {
  for (const line of text.split('\n')) {
    const match = RUN_MODE_LINE.exec(line);
    if (!match) continue;
    const value = (match[1] ?? '').toLowerCase().replace(/\s+/g, '');
    return value === 'autonomous' ? 'autonomous' : 'interactive';
  }
  return undefined;
}
