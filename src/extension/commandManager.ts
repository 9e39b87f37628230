import * as vscode from 'vscode';

/** One palette or internal command; `id` must match an entry in package.json `contributes.commands`. */
export interface Command {
  readonly id: string;
  execute(...args: unknown[]): unknown;
}

/** Registers commands and owns their registrations, so disposing it unregisters every one. */
export class CommandManager implements vscode.Disposable {
  private readonly registrations = new Map<string, vscode.Disposable>();

  register<T extends Command>(command: T): T {
    if (this.registrations.has(command.id)) throw new Error(`command registered twice: ${command.id}`);
    const registration = vscode.commands.registerCommand(command.id, (...args: unknown[]) =>
      command.execute(...args),
    );
    this.registrations.set(command.id, registration);
    return command;
  }

  dispose(): void {
    for (const registration of this.registrations.values()) registration.dispose();
    this.registrations.clear();
  }
}
