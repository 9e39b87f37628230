// What the driver observed of one inner run: the captures around it, its summary and how it
// ended. Its own file because both the classifier and the pause questions read it.
export interface RepeatRunFacts {
  /** Serialised captures before and after the run (equal text = equal state, per recipe). */
  pre: string;
  post: string;
  summary: string;
  /** The inner command's exit code (null when it was killed); a failure is a recurring blocker. */
  exitCode: number | null;
  /** stderr's last line, when the step failed (the pause names it as the blocker). */
  failure?: string | null;
}
