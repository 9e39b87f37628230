// Which field of an iteration (or of open/close) each CLI flag sets, by the engine's own field
// name. A finding's message speaks the CLI's words (drop-in compatibility); the field names it
// carries let another shell speak its own ("Critic next" in the panel instead of --critic-next).
export const FIELD_OF_FLAG: Readonly<Record<string, string>> = {
  '--critic-verdict': 'critic_verdict',
  '--critic-next': 'critic_next',
  '--critic-brief': 'critic_brief',
  '--evidence-path': 'evidence_paths',
  '--decision': 'decision',
  '--action': 'actions',
  '--measure': 'measurements',
  '--outcome': 'outcome',
  '--blocker': 'blocker',
  '--evidence': 'evidence',
  '--recommended-next': 'recommended_next',
  '--dependency-missing': 'dependency_missing',
  '--error': 'error',
  '--state': 'state',
  '--files-changed': 'files_changed',
  '--command-run': 'commands_run',
  '--note': 'note',
  '--stall-threshold': 'stall_threshold',
  '--baseline-evidence': 'baseline_evidence',
};

/** A flag as it appears in a message: `--` and lower-case words joined by `-`. */
export const FLAG_PATTERN = /--[a-z]+(?:-[a-z]+)*/g;

/** The fields whose flags `message` names, in order of first mention. */
export function fieldsNamedIn(message: string): string[] {
  const fields: string[] = [];
  for (const [flag] of message.matchAll(FLAG_PATTERN)) {
    const field = Object.hasOwn(FIELD_OF_FLAG, flag) ? FIELD_OF_FLAG[flag]! : undefined;
    if (field && !fields.includes(field)) fields.push(field);
  }
  return fields;
}
