// The questions Run Loop asks: objective, allowed globs (prefilled from the contract's expected
// outputs), checks (prefilled from the rubric's evidence commands), agent config, attempts.
import * as vscode from 'vscode';
import type { Ledger } from '../../engine/types';
import { loadLedgerAsync } from '../../app/ledger/read-operations-async';
import { runSteps, settle, type Prompter, type Step } from '../input';

const TITLE = (): string => vscode.l10n.t('Loop Ledger: Run Loop');

export interface RunAnswers {
  objective?: string;
  allow?: string[];
  checks?: string[];
  extraCheck?: string;
  agentConfig?: string;
  maxAttempts?: number;
}

export interface RunDefaults {
  ledger: Ledger | null;
  /** Starter configs shipped with the extension (absolute paths). */
  starters: { label: string; path: string; detail: string }[];
  /** `*.toml` files in the workspace (absolute paths). */
  configs: string[];
  root: string;
}

function stringsOf(value: unknown): string[] {
  if (Array.isArray(value)) return value.filter((v): v is string => typeof v === 'string' && v.trim() !== '');
  return typeof value === 'string' && value.trim() !== '' ? [value] : [];
}

/** Splits "a, b" into globs (a glob with a comma in it is rare; the CLI takes any). */
export function splitGlobs(text: string): string[] {
  return text
    .split(',')
    .map((g) => g.trim())
    .filter((g) => g !== '');
}

export async function askRun(ask: () => Prompter, d: RunDefaults): Promise<RunAnswers | undefined> {
  const contract = d.ledger?.contract;
  const evidence = (contract?.quality_rubric ?? [])
    .map((r) => r.evidence_command)
    .filter((c) => c.trim() !== '');
  const state: RunAnswers = {};
  const steps: Step<RunAnswers>[] = [
    async (s, at) =>
      settle(
        await ask().inputText({
          id: 'run.objective',
          title: TITLE(),
          prompt: vscode.l10n.t('Objective: the one artifact this run must complete'),
          value: s.objective ?? (typeof contract?.purpose === 'string' ? contract.purpose : ''),
          validate: (t) => (t.trim() === '' ? vscode.l10n.t('The objective must not be empty') : undefined),
          ...at,
        }),
        (v) => (s.objective = v.trim()),
      ),
    async (s, at) =>
      settle(
        await ask().inputText({
          id: 'run.allow',
          title: TITLE(),
          prompt: vscode.l10n.t(
            'Allowed globs, comma-separated (Python fnmatch: * also crosses /). The coder may change only these.',
          ),
          value: (s.allow ?? stringsOf(contract?.expected_outputs)).join(', '),
          validate: (t) => (splitGlobs(t).length === 0 ? vscode.l10n.t('At least one glob') : undefined),
          ...at,
        }),
        (v) => (s.allow = splitGlobs(v)),
      ),
    async (s, at) => {
      if (evidence.length === 0) return ((s.checks = []), 'skip');
      return settle(
        await ask().pickMany({
          id: 'run.checks',
          title: TITLE(),
          placeholder: vscode.l10n.t(
            'Deterministic checks (run with sh -c after every attempt; all must exit 0)',
          ),
          items: evidence.map((c) => ({ label: c, value: c, picked: true })),
          ...at,
        }),
        (v) => (s.checks = v),
      );
    },
    async (s, at) =>
      settle(
        await ask().inputText({
          id: 'run.extraCheck',
          title: TITLE(),
          prompt: vscode.l10n.t('Another check command (optional; leave empty for none)'),
          value: s.extraCheck ?? '',
          ...at,
        }),
        (v) => (s.extraCheck = v.trim()),
      ),
    async (s, at) =>
      settle(
        await ask().pickOne({
          id: 'run.agentConfig',
          title: TITLE(),
          placeholder: vscode.l10n.t('Agent config (TOML: [explorer] [coder] [code-reviewer])'),
          items: [
            ...d.configs.map((path) => ({
              label: vscode.workspace.asRelativePath(path),
              description: vscode.l10n.t('workspace'),
              value: path,
            })),
            ...d.starters.map((st) => ({
              label: st.label,
              description: vscode.l10n.t('starter'),
              detail: st.detail,
              value: st.path,
            })),
          ],
          ...at,
        }),
        (v) => (s.agentConfig = v),
      ),
    async (s, at) =>
      settle(
        await ask().inputText({
          id: 'run.maxAttempts',
          title: TITLE(),
          prompt: vscode.l10n.t('Maximum attempts (coder → checks → reviewer cycles)'),
          value: String(s.maxAttempts ?? contract?.iteration_limit ?? 3),
          validate: (t) =>
            /^\s*\d+\s*$/.test(t) && Number(t) >= 1
              ? undefined
              : vscode.l10n.t('A whole number of at least 1'),
          ...at,
        }),
        (v) => (s.maxAttempts = Number(v)),
      ),
  ];
  if (!(await runSteps(state, steps))) return undefined;
  if (state.extraCheck) state.checks = [...(state.checks ?? []), state.extraCheck];
  return state;
}

/** The ledger of `session` under `root`, when it can be read (prefills only; never required). */
export async function ledgerForPrefill(root: string, session: string | undefined): Promise<Ledger | null> {
  if (!session) return null;
  // The store's reader (size cap, no symlink, no FIFO), off the host's thread; any refusal is
  // simply no prefill.
  return loadLedgerAsync(root, session).catch(() => null);
}
