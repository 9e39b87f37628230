// Runs the rubric's evidence commands where the person can watch them: a VS Code terminal that
// this extension drives (a Pseudoterminal), which echoes each command and its output and keeps a
// transcript for the brief. Evidence commands are shell commands by definition (the contract
// author wrote them for a shell), so each one runs through the default shell; nothing from the
// diff or the ledger is spliced into them.
import { spawn } from 'node:child_process';
import * as vscode from 'vscode';

export interface EvidenceRun {
  transcript: string;
  /** Commands that exited non-zero (their output is still in the transcript). */
  failed: string[];
}

/** Stops a runaway evidence command; the transcript records that it was stopped. */
const COMMAND_TIMEOUT_MS = 10 * 60 * 1000;

function toTerminal(text: string): string {
  return text.replace(/\r?\n/g, '\r\n');
}

function runOne(
  command: string,
  cwd: string,
  write: (text: string) => void,
): Promise<{ output: string; code: number | null }> {
  return new Promise((resolve) => {
    const child = spawn(command, { cwd, shell: true, env: process.env, timeout: COMMAND_TIMEOUT_MS });
    let output = '';
    const take = (chunk: Buffer) => {
      const text = chunk.toString('utf8');
      output += text;
      write(toTerminal(text));
    };
    child.stdout.on('data', take);
    child.stderr.on('data', take);
    child.on('error', (error) => {
      output += `${error.message}\n`;
      write(toTerminal(`${error.message}\n`));
    });
    child.on('close', (code) => resolve({ output, code }));
  });
}

/** Opens a terminal named "Loop Ledger evidence", runs `commands` one after another, and resolves with the transcript. */
export function runEvidenceCommands(commands: readonly string[], cwd: string): Promise<EvidenceRun> {
  const writeEmitter = new vscode.EventEmitter<string>();
  let resolveRun: (run: EvidenceRun) => void;
  const done = new Promise<EvidenceRun>((resolve) => (resolveRun = resolve));
  const pty: vscode.Pseudoterminal = {
    onDidWrite: writeEmitter.event,
    open: () => {
      void (async () => {
        const parts: string[] = [];
        const failed: string[] = [];
        for (const command of commands) {
          writeEmitter.fire(`\x1b[1m$ ${command}\x1b[0m\r\n`);
          const { output, code } = await runOne(command, cwd, (text) => writeEmitter.fire(text));
          parts.push(
            `$ ${command}\n${output}${output.endsWith('\n') || output === '' ? '' : '\n'}[exit ${code ?? 'killed'}]\n`,
          );
          if (code !== 0) failed.push(command);
        }
        writeEmitter.fire(
          `\r\n${vscode.l10n.t('Loop Ledger: evidence captured for the brief. This terminal can be closed.')}\r\n`,
        );
        resolveRun({ transcript: parts.join('\n'), failed });
      })();
    },
    close: () => writeEmitter.dispose(),
  };
  const terminal = vscode.window.createTerminal({ name: vscode.l10n.t('Loop Ledger evidence'), pty });
  terminal.show(true);
  return done;
}
