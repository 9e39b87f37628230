import * as vscode from 'vscode';
import type { CommandManager } from '../commandManager';
import { CliHistory } from '../commands/cliHistory';
import {
  CompareWithPreviousCommand,
  CompareWithWorkspaceCommand,
  RestoreCheckpointCommand,
  type CheckpointDeps,
} from './commands';
import { registerCheckpointDocuments } from './documents';

/** The `loop-ledger-checkpoint:` documents and the checkpoint commands of the Sessions tree. */
export function registerCheckpoints(
  context: vscode.ExtensionContext,
  commands: CommandManager,
  services: Omit<CheckpointDeps, 'cliHistory' | 'now'>,
): void {
  const deps: CheckpointDeps = { ...services, cliHistory: new CliHistory(), now: () => new Date() };
  context.subscriptions.push(registerCheckpointDocuments(() => deps.trust.isTrusted));
  commands.register(new CompareWithPreviousCommand(deps));
  commands.register(new CompareWithWorkspaceCommand(deps));
  commands.register(new RestoreCheckpointCommand(deps));
}
