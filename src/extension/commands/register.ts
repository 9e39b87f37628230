import type * as vscode from 'vscode';
import type { SessionsNode } from '../sessions/nodes';
import type { CommandManager } from '../commandManager';
import type { PrompterSlot } from '../input';
import type { SessionsTreeProvider } from '../sessions/treeProvider';
import type { TrustGate } from '../workspace/trust';
import { CliHistory } from './cliHistory';
import { CloseCommand } from './close';
import { CopyCliCommandCommand } from './copyCliCommand';
import type { CommandDeps } from './deps';
import { OpenLoopCommand } from './openLoop';
import { RecordIterationCommand } from './recordIteration';
import { RefreshSessionsCommand } from './refreshSessions';
import { ResumeCommand } from './resume';
import { RevealLedgerFileCommand } from './revealLedgerFile';
import { ScoreCommand } from './score';
import { ShowStatusCommand } from './showStatus';

/** The session commands (palette, tree menus, status bar), all through src/app operations. */
export function registerSessionCommands(
  commands: CommandManager,
  services: {
    prompter: PrompterSlot;
    sessions: SessionsTreeProvider;
    output: vscode.OutputChannel;
    trust: TrustGate;
    selection?: () => readonly SessionsNode[];
  },
): CommandDeps {
  const deps: CommandDeps = {
    ...services,
    cliHistory: new CliHistory(),
    now: () => new Date(),
  };
  commands.register(new OpenLoopCommand(deps));
  commands.register(new RecordIterationCommand(deps));
  commands.register(new ScoreCommand(deps));
  commands.register(new CloseCommand(deps));
  commands.register(new ResumeCommand(deps));
  commands.register(new ShowStatusCommand(deps));
  commands.register(new RevealLedgerFileCommand(deps));
  commands.register(new CopyCliCommandCommand(deps));
  commands.register(new RefreshSessionsCommand(deps));
  return deps;
}
