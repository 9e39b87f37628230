// The exported packet as Markdown: what another agent or a colleague reads to judge the change
// outside this window. Same content as the panel (and as `loop-ledger brief --json`), no builder
// summary, and the commands to record the verdict afterwards.
import { ownValue } from '../../engine/text-keyed';
import type { ChangeRef, PacketData } from '../../shared/protocol';

/** A fence longer than any run of backticks inside `text`, so the content cannot close it. */
function fence(text: string, info = ''): string {
  const longest = Math.max(2, ...Array.from(text.matchAll(/`+/g), (m) => m[0].length));
  const marks = '`'.repeat(longest + 1);
  return `${marks}${info}\n${text}${text.endsWith('\n') ? '' : '\n'}${marks}`;
}

function cell(value: unknown): string {
  return String(value).replace(/\|/g, '\\|').replace(/\r?\n/g, ' ');
}

export function packetMarkdown(session: string, change: ChangeRef, packet: PacketData): string {
  const { scope } = packet;
  const rubric = packet.rubric.map(
    (r) =>
      `| ${cell(r.dimension)} | ${cell(r.direction)} | ${r.weight} | ${ownValue(packet.baseline, r.dimension) ?? r.baseline} | ${r.target} | ${r.failure_threshold} | ${r.hard_gate ? 'yes' : 'no'} | ${cell(r.evidence_command)} |`,
  );
  const list = (paths: string[] | null) =>
    paths && paths.length > 0 ? paths.map((p) => `- \`${p}\``).join('\n') : '- (none)';
  return [
    `# Critic brief ${packet.brief_id}`,
    '',
    `Session \`${session}\` · ${change.label}`,
    '',
    '## What you are asked',
    '',
    ...packet.asks.map((ask, i) => `${i + 1}. ${ask}`),
    '',
    `Answer with exactly one verdict: ${packet.verdicts.join(', ')}.`,
    '',
    '## Scope',
    '',
    `Provenance: **${scope.provenance}**`,
    '',
    'Declared paths:',
    '',
    scope.declared_paths === null ? '- (no change scope was given)' : list(scope.declared_paths),
    '',
    'Paths in the diff:',
    '',
    list(scope.diff_paths),
    '',
    'Undeclared paths (in the diff, not in the declared scope):',
    '',
    list(scope.undeclared_paths),
    '',
    '## Rubric',
    '',
    '| dimension | direction | weight | baseline | target | failure threshold | hard gate | evidence command |',
    '| --- | --- | --- | --- | --- | --- | --- | --- |',
    ...rubric,
    '',
    '## Verification output',
    '',
    fence(packet.verification, 'text'),
    '',
    '## Diff',
    '',
    fence(packet.diff, 'diff'),
    '',
    '## Recording the verdict',
    '',
    'From the Loop Ledger panel in VS Code, or from a terminal:',
    '',
    fence(
      `loop-ledger iterate --session ${session} --outcome continue --critic-brief ${packet.brief_id} \\\n  --critic-verdict PASS --critic-next "…" --evidence-path PATH`,
      'sh',
    ),
    '',
  ].join('\n');
}
