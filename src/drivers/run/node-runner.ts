// The DAG node runner: runs `loop-ledger run --print-json` as a child process in
// the repository, reads the receipt it names, validates it and builds the node result.
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { readBoundedText } from '../../store/bounded-read';
import { join, resolve } from 'node:path';
import {
  infrastructureResult,
  resultFromReceipt,
  type LoopProcessFacts,
  type NodeSpec,
} from '../../engine/run/node-spec';
import { validateFinalReceipt, validSummary } from '../../engine/run/receipt';
import { START_FAILED_CODE } from '../../engine/run/stop-rules';

function runChild(
  cmd: string[],
  cwd: string,
  env: NodeJS.ProcessEnv,
  signal?: AbortSignal,
): Promise<LoopProcessFacts> {
  return new Promise((done) => {
    const child = spawn(cmd[0] as string, cmd.slice(1), { cwd, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    const forward = () => child.kill('SIGTERM'); // the child cancels its own groups and records a pause
    signal?.addEventListener('abort', forward, { once: true });
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString('utf8')));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString('utf8')));
    child.on('error', (e) => done({ exitCode: START_FAILED_CODE, stdout, stderr: stderr + e.message }));
    child.on('close', (code) => {
      signal?.removeEventListener('abort', forward);
      done({ exitCode: code, stdout, stderr });
    });
  });
}

export async function runNode(
  spec: NodeSpec,
  repo: string,
  cli: { node: string; script: string },
  env: NodeJS.ProcessEnv,
  signal?: AbortSignal,
): Promise<{ result: Record<string, unknown>; exitCode: number }> {
  const root = resolve(repo);
  const cmd = [
    cli.node,
    cli.script,
    'run',
    '--objective',
    spec.objective,
    '--agent-config',
    spec.agentConfig,
    '--max-attempts',
    String(spec.maxAttempts),
    '--check-timeout',
    String(spec.checkTimeout),
    '--run-root',
    spec.runRoot,
    '--print-json',
    spec.requireClean ? '--require-clean' : '--no-require-clean',
    ...spec.allowedGlobs.flatMap((g) => [`--allow=${g}`]),
    ...spec.checks.flatMap((c) => [`--check=${c}`]),
  ];
  const loop = await runChild(cmd, root, env, signal);
  let parsed: unknown;
  try {
    parsed = JSON.parse(loop.stdout);
  } catch {
    parsed = undefined;
  }
  if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed))
    return {
      result: infrastructureResult(spec.nodeId, 'loop-ledger run did not emit JSON', loop),
      exitCode: 1,
    };
  const artifacts = (parsed as Record<string, unknown>).artifacts as Record<string, unknown> | undefined;
  if (!artifacts || typeof artifacts !== 'object' || typeof artifacts.run_dir !== 'string')
    return {
      result: infrastructureResult(spec.nodeId, 'loop receipt missing artifacts.run_dir', loop),
      exitCode: 1,
    };
  const receiptPath = join(root, artifacts.run_dir, 'final-receipt.json');
  if (!existsSync(receiptPath))
    return {
      result: infrastructureResult(spec.nodeId, `final receipt not found: ${receiptPath}`, loop),
      exitCode: 1,
    };
  let receipt: Record<string, unknown>;
  try {
    receipt = JSON.parse(readBoundedText(receiptPath)) as Record<string, unknown>;
  } catch (error) {
    return {
      result: infrastructureResult(
        spec.nodeId,
        `final receipt unreadable: ${(error as Error).message}`,
        loop,
      ),
      exitCode: 1,
    };
  }
  const errors = validateFinalReceipt(receipt);
  const validator =
    errors.length === 0
      ? { valid: true, stdout: validSummary(receipt, true) + '\n', stderr: '' }
      : {
          valid: false,
          stdout: '',
          stderr: ['LOOP RECEIPT INVALID', ...errors.map((e) => `- ${e}`)].join('\n') + '\n',
        };
  const result = resultFromReceipt(spec, receipt, receiptPath, validator, loop);
  return { result, exitCode: result.status === 'PASS' ? 0 : 1 };
}
