// "Loop Ledger: Assemble Critic Brief": which session, which change, which verification output;
// then git produces the diff and its --stat (the local repository, on a store window too), src/app's
// briefOp (or the store's brief, which keeps the packet in the store) assembles and records the
// packet, and the panel shows it. A refusal (8: an empty or unreadable input, 9: the diff does not cover
// the declared scope) is shown with the engine's own findings, and nothing is recorded.
import * as vscode from 'vscode';
import { briefOp, type Outcome } from '../../app/ledger/operations';
import { listOpAsync } from '../../app/ledger/read-operations-async';
import { loadLedgerAsync } from '../../app/ledger/read-operations-async';
import type { BriefPacket } from '../../engine/brief';
import { EXIT_MEANING } from '../../engine/refusal';
import { inUiWords } from '../findingWords';
import type { ChangeKind, PanelState } from '../../shared/protocol';
import type { Command } from '../commandManager';
import { BACK, runSteps, settle, type PrompterSlot, type Step } from '../input';
import { workspaceRoots } from '../workspace/roots';
import { BriefPanel } from './briefPanel';
import type { BriefPanels } from './briefPanels';
import { CHANGE_LABELS, rangeProblem, readChange, type ChangeChoice } from '../../drivers/git/changes';
import { GitError } from '../../drivers/git/git';
import { askVerification, readVerification, type VerificationChoice } from './verificationSource';
import type { StoreWrites } from '../sessions/sessionSource';
import { writeWithoutBlocking } from '../workspace/ledgerWrites';

export type AssembleResult =
  | { status: 'shown'; panel: BriefPanel; outcome: Outcome<BriefPacket> }
  | { status: 'refused'; outcome: Outcome<BriefPacket> }
  | { status: 'cancelled' }
  | { status: 'unavailable'; reason: string };

interface Answers {
  root?: string;
  session?: string;
  change?: ChangeChoice;
  verification?: VerificationChoice;
}

const CHANGE_DETAILS = (): Record<ChangeKind, string> => ({
  workingTree: vscode.l10n.t('git diff HEAD — everything not yet committed, staged or not'),
  staged: vscode.l10n.t('git diff --cached — what the next commit would hold'),
  lastCommit: vscode.l10n.t('git show HEAD — the most recent commit'),
  range: vscode.l10n.t('git diff A..B — every commit between two revisions'),
});

export class AssembleBriefCommand implements Command {
  readonly id = 'loopLedger.assembleBrief';

  constructor(
    private readonly prompter: PrompterSlot,
    private readonly panels: BriefPanels,
  ) {}

  async execute(): Promise<AssembleResult> {
    if (!this.panels.services.isTrusted()) {
      const reason = vscode.l10n.t(
        'Loop Ledger: assembling a brief records it in the ledger, and this workspace is not trusted. Loop Ledger is read-only here.',
      );
      void vscode.window.showWarningMessage(reason);
      return { status: 'unavailable', reason };
    }
    const roots = workspaceRoots();
    if (roots.length === 0) {
      const reason = vscode.l10n.t(
        'Loop Ledger: open a folder first; a brief is assembled from its git repository.',
      );
      void vscode.window.showWarningMessage(reason);
      return { status: 'unavailable', reason };
    }
    const answers: Answers = { root: roots.length === 1 ? roots[0]!.path : undefined };
    const prompter = this.prompter.current;
    const steps: Step<Answers>[] = [
      async (state, position) => {
        if (roots.length === 1) return 'skip';
        const items = roots.map((r) => ({ label: r.name, description: r.path, value: r.path }));
        const answer = await prompter.pickOne({
          id: 'brief.root',
          title: vscode.l10n.t('Assemble Critic Brief: folder'),
          items,
          ...position,
        });
        return settle(answer, (root) => (state.root = root));
      },
      async (state, position) => {
        const store = this.panels.services.storeWrites(state.root!);
        const listed = store ? await store.run((s) => s.list()) : await listOpAsync(state.root!);
        if (listed.payload === undefined) {
          // The store could not be read: its own one line (the host, never the password).
          void vscode.window.showErrorMessage(
            vscode.l10n.t('Loop Ledger: {0}', listed.findings.map(inUiWords).join(' ')),
          );
          return undefined;
        }
        const sessions = listed.payload.sessions.filter((s) => s.status !== null);
        if (sessions.length === 0) {
          void vscode.window.showWarningMessage(
            vscode.l10n.t('Loop Ledger: no session in this folder yet; open one with a contract first.'),
          );
          return undefined;
        }
        const items = sessions.map((s) => ({
          label: s.session,
          description: vscode.l10n.t('{0} · {1} iteration(s)', s.status ?? '', s.iterations ?? 0),
          value: s.session,
        }));
        const answer = await prompter.pickOne({
          id: 'brief.session',
          title: vscode.l10n.t('Assemble Critic Brief: session'),
          placeholder: vscode.l10n.t('Which session is this change for?'),
          items,
          ...position,
        });
        return settle(answer, (session) => (state.session = session));
      },
      async (state, position) => {
        const kinds = Object.keys(CHANGE_LABELS()) as ChangeKind[];
        const items = kinds.map((kind) => ({
          label: CHANGE_LABELS()[kind],
          detail: CHANGE_DETAILS()[kind],
          value: kind,
        }));
        const kind = await prompter.pickOne({
          id: 'brief.change',
          title: vscode.l10n.t('Assemble Critic Brief: change'),
          placeholder: vscode.l10n.t('Which change should the critic judge?'),
          items,
          ...position,
        });
        if (kind === undefined || kind === BACK) return kind;
        if (kind !== 'range') return settle(kind, (k) => (state.change = { kind: k }));
        const range = await prompter.inputText({
          id: 'brief.range',
          title: vscode.l10n.t('Assemble Critic Brief: commit range'),
          prompt: vscode.l10n.t('Commit range, A..B'),
          // eslint-disable-next-line no-restricted-syntax -- git's range syntax, the same in every language
          placeholder: 'main..HEAD',
          validate: rangeProblem,
          ...position,
        });
        return settle(range, (r) => (state.change = { kind: 'range', range: r.trim() }));
      },
      async (state, position) => {
        const rubric = await loadRubric(
          state.root!,
          state.session!,
          this.panels.services.storeWrites(state.root!),
        );
        const answer = await askVerification(
          prompter,
          state.root!,
          rubric,
          this.panels.services.isTrusted(),
          position,
        );
        return settle(answer, (v) => (state.verification = v));
      },
    ];
    if (!(await runSteps(answers, steps))) return { status: 'cancelled' };
    return this.assemble(answers.root!, answers.session!, answers.change!, answers.verification!);
  }

  private async assemble(
    root: string,
    session: string,
    change: ChangeChoice,
    verificationChoice: VerificationChoice,
  ): Promise<AssembleResult> {
    let texts;
    try {
      texts = await readChange(root, change);
    } catch (error) {
      const reason = vscode.l10n.t(
        'Loop Ledger: git could not produce the change: {0}',
        error instanceof GitError || error instanceof Error ? error.message : String(error),
      );
      void vscode.window.showErrorMessage(reason);
      return { status: 'unavailable', reason };
    }
    const verification = await readVerification(root, verificationChoice);
    const gitLabel = change.kind === 'range' ? change.range : change.kind;
    const briefInput = {
      diff: { path: `git diff (${gitLabel})`, text: texts.diff },
      verification,
      changeScope: { path: `git --stat (${gitLabel})`, text: texts.stat },
      ownPrefix: texts.ownPrefix,
    };
    const store = this.panels.services.storeWrites(root);
    // A diff given as text comes back as text (only the CLI's byte input is kept in chunks).
    const outcome = store
      ? ((await store.run((s) => s.brief(session, briefInput))) as Outcome<BriefPacket>)
      : await writeWithoutBlocking((lock) => briefOp(root, session, briefInput, lock));
    if (outcome.exitCode !== 0 || !outcome.payload) {
      // In the UI's words, each a sentence, as every refusal the extension shows.
      const findings = outcome.findings.map(inUiWords);
      this.panels.services.output.appendLine(
        vscode.l10n.t(
          'brief refused for {0} (exit {1}): {2}',
          session,
          outcome.exitCode,
          findings.join(' | '),
        ),
      );
      void vscode.window.showErrorMessage(
        vscode.l10n.t(
          'Loop Ledger: brief refused (exit {0}: {1}). {2} Nothing was written.',
          outcome.exitCode,
          EXIT_MEANING[outcome.exitCode],
          findings.join(' '),
        ),
      );
      return { status: 'refused', outcome };
    }
    const state: PanelState = {
      session,
      change: texts.ref,
      packet: outcome.payload,
      spent: null,
      canRecord: true,
    };
    const panel = await this.panels.open(state, root);
    return { status: 'shown', panel, outcome };
  }
}

async function loadRubric(root: string, session: string, store: StoreWrites | undefined) {
  try {
    if (store)
      return (
        (await store.run((s) => s.load(session, 'summary'))).payload?.ledger.contract.quality_rubric ?? []
      );
    return (await loadLedgerAsync(root, session)).contract.quality_rubric ?? [];
  } catch {
    return []; // the brief itself will name the unreadable ledger
  }
}
