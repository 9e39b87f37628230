// Record Iteration's loop-engineering question, asked only when the session was opened with a
// loop-engineering contract: the budget this iteration spent (`--spent`), the model's raw stop
// signal (`--termination`) and a NO_OP iteration (`--no-op` with its three counts). It only
// gathers text; the engine (iterateOp, the CLI's own operation) parses and refuses it.
import * as vscode from 'vscode';
import { askEach, BACK, settle, type Prompter, type StepPosition, type StepResult } from '../input';
import type { ReadableSession } from '../sessions/sessionEntry';

export interface EngineeringAnswers {
  target?: ReadableSession;
  /** `KIND=N` values, as `--spent` takes them. */
  spent: string[];
  termination?: string;
  noOp?: boolean;
  eligibleCount?: string;
  outputCount?: string;
  sideEffects?: string;
}

type Fact = 'spent' | 'termination' | 'noOp';

/** Whether the session's ledger carries the `engineering` key `open --engineering` writes. */
export function isEngineeringSession(session: ReadableSession | undefined): boolean {
  const key = (session?.ledger as { engineering?: unknown } | undefined)?.engineering;
  return key !== undefined && key !== null;
}

/** The NO_OP counts, in the order the CLI's flags name them. */
const counts = () =>
  [
    ['eligibleCount', 'eligible-count', vscode.l10n.t('Items the eligibility query found (a NO_OP needs 0)')],
    [
      'outputCount',
      'output-count',
      vscode.l10n.t("Outputs produced (within the contract's NO_OP output limit)"),
    ],
    ['sideEffects', 'side-effects', vscode.l10n.t('Side effects that happened (a NO_OP needs 0)')],
  ] as const;

/** `calls=3, tokens=900` → the two `KIND=N` values (the engine checks each). */
const spentList = (text: string): string[] => text.split(/[\s,]+/).filter((part) => part !== '');

export async function askEngineeringFacts(
  prompter: () => Prompter,
  title: string,
  s: EngineeringAnswers,
  at: StepPosition,
): Promise<StepResult> {
  if (!isEngineeringSession(s.target)) {
    // Another session may have been picked after Back: nothing of a previous answer stays.
    clear(s);
    return 'skip';
  }
  const picked: Fact[] = [
    ...(s.spent.length > 0 ? (['spent'] as const) : []),
    ...(s.termination !== undefined ? (['termination'] as const) : []),
    ...(s.noOp ? (['noOp'] as const) : []),
  ];
  const facts = await prompter().pickMany<Fact>({
    id: 'record.engineering',
    title,
    placeholder: vscode.l10n.t('Loop-engineering facts of this iteration? (select none to skip)'),
    items: [
      {
        label: vscode.l10n.t('Budget spent'),
        description: vscode.l10n.t('calls=N tokens=N usd=N ms=N, added up against the contract caps'),
        value: 'spent',
        picked: picked.includes('spent'),
      },
      {
        label: vscode.l10n.t('Termination signal'),
        description: vscode.l10n.t("the model's raw stop signal: end_turn, tool_use, max_tokens, refusal …"),
        value: 'termination',
        picked: picked.includes('termination'),
      },
      {
        label: vscode.l10n.t('NO_OP'),
        description: vscode.l10n.t('a quiet iteration: no eligible work, no side effect'),
        value: 'noOp',
        picked: picked.includes('noOp'),
      },
    ],
    ...at,
  });
  if (facts === undefined || facts === BACK) return facts;
  clear(s);
  const answers = await askEach(facts, (fact) => askFact(prompter(), title, s, fact));
  if (answers === BACK) return BACK;
  return settle(answers, () => undefined);
}

function clear(s: EngineeringAnswers): void {
  s.spent = [];
  s.termination = undefined;
  s.noOp = undefined;
  s.eligibleCount = s.outputCount = s.sideEffects = undefined;
}

async function askFact(prompter: Prompter, title: string, s: EngineeringAnswers, fact: Fact) {
  if (fact === 'spent') {
    const answer = await prompter.inputText({
      id: 'record.spent',
      title: vscode.l10n.t('{0} — budget spent', title),
      prompt: vscode.l10n.t('What this iteration used, e.g. calls=3 tokens=12000 usd=0.40 ms=90000'),
      validate: (text) =>
        spentList(text).length === 0 ? vscode.l10n.t('name at least one KIND=N') : undefined,
      canGoBack: true,
    });
    if (typeof answer === 'string') s.spent = spentList(answer);
    return answer;
  }
  if (fact === 'termination') {
    const answer = await prompter.inputText({
      id: 'record.termination',
      title: vscode.l10n.t('{0} — termination signal', title),
      prompt: vscode.l10n.t(
        "The provider's raw stop signal (stored normalised; a refusal or unknown escalates)",
      ),
      validate: (text) => (text.trim() === '' ? vscode.l10n.t('a signal is needed') : undefined),
      canGoBack: true,
    });
    if (typeof answer === 'string') s.termination = answer.trim();
    return answer;
  }
  const questions = counts();
  const answers = await askEach(questions, ([key, flag, prompt]) =>
    prompter.inputText({
      id: `record.noOp.${key}`,
      title: vscode.l10n.t('{0} — NO_OP (--{1})', title, flag),
      prompt,
      value: s[key] ?? '0',
      canGoBack: true,
    }),
  );
  if (!Array.isArray(answers)) return answers;
  s.noOp = true;
  questions.forEach(([key], i) => (s[key] = answers[i]!.trim()));
  return 'noOp';
}
