import { EXIT } from '../../engine/refusal';
import type { BrokenSession } from '../sessions/sessionEntry';
import type { CommandDeps, CommandReport } from './deps';
import { reportRefusal } from './report';

/** A command run on an unreadable ledger: the store's verdict, as the CLI would refuse it (exit 2). */
export function brokenRefusal(deps: CommandDeps, title: string, entry: BrokenSession): CommandReport<never> {
  return reportRefusal(deps, title, {
    exitCode: EXIT.usage,
    findings: [{ message: `${entry.path}: ${entry.problem}` }],
  });
}
