// Talks to the MCP server an agent-mode definition starts, as VS Code would: the definition's
// command, arguments, folder and environment, JSON-RPC lines on stdin, answers read by id.
import { spawn } from 'node:child_process';
import type * as vscode from 'vscode';

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Answer = any;

/** Sends JSON-RPC lines to the server the definition starts; resolves with the answers by id. */
export function talk(definition: vscode.McpStdioServerDefinition, requests: object[], wanted: number[]) {
  return new Promise<Map<number, Answer>>((resolve, reject) => {
    const child = spawn(definition.command, definition.args, {
      cwd: definition.cwd?.fsPath,
      env: { ...process.env, ...(definition.env as Record<string, string>) },
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    const answers = new Map<number, Answer>();
    let buffered = '';
    let stderr = '';
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`the server did not answer in time; stderr: ${stderr}`));
    }, 60_000);
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.stdout.on('data', (chunk: Buffer) => {
      buffered += chunk.toString();
      let newline: number;
      while ((newline = buffered.indexOf('\n')) >= 0) {
        const line = buffered.slice(0, newline);
        buffered = buffered.slice(newline + 1);
        if (line.trim() === '') continue;
        const message = JSON.parse(line) as { id?: number };
        if (typeof message.id === 'number') answers.set(message.id, message);
        if (wanted.every((id) => answers.has(id))) {
          clearTimeout(timer);
          child.stdin.end();
          resolve(answers);
        }
      }
    });
    child.on('error', (error) => {
      clearTimeout(timer);
      reject(error);
    });
    for (const request of requests) child.stdin.write(`${JSON.stringify(request)}\n`);
  });
}
