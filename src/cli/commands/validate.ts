import { validateContract } from '../../engine/contract';
import type { CommandSpec, ParsedFlags } from '../args';
import type { CommandOutcome } from '../outcome';
import { programResolver } from '../resolve-program';
import { readContractFile } from './contract-file';
import type { CommandContext } from './context';

export const spec: CommandSpec = {
  name: 'validate',
  summary:
    'Check a contract without opening a loop: every finding open would report. Exit 0 valid, 1 invalid, 2 unreadable.',
  flags: {},
  positional: 'FILE',
};

export function run(_flags: ParsedFlags, ctx: CommandContext, file?: string): CommandOutcome {
  const path = file as string;
  const result = validateContract(readContractFile(path), programResolver(ctx.root));
  const findings = result.ok ? [] : result.findings;
  const payload = {
    file: path,
    valid: result.ok,
    findings: findings.map((f) => ({ code: f.code ?? null, message: f.message, path: f.path ?? [] })),
  };
  if (result.ok) {
    const dims = result.contract.quality_rubric.length;
    return { exitCode: 0, payload, human: `${path}: valid contract (${dims} rubric dimension(s))` };
  }
  return {
    exitCode: 1,
    payload: ctx.json ? payload : undefined,
    findings: findings.map((f) => `${path}: ${f.message}`),
  };
}
