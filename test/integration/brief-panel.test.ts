// The critic-brief panel host inside a real extension host: the command assembles a brief from
// the workspace's git diff through the engine, and every message the webview could send passes
// the host's gate — malformed, oversized and out-of-order messages are refused with a reason and
// record nothing; a well-formed verdict records exactly one iteration and spends the brief.
import * as assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import * as vscode from 'vscode';
import { openOp } from '../../src/app/contract/operations';
import type { AssembleResult } from '../../src/extension/brief/assembleBrief';
import { BriefPanel } from '../../src/extension/brief/briefPanel';
import { ScriptedPrompter } from '../hooks/scriptedPrompter';
import type { ToWebview } from '../../src/shared/protocol';
import { extensionPath, testingApi, workspaceRoot } from './sessionsHelpers';

const SESSION = 'brief-it';
const GREET = join('src', 'greet.js');

const contract = {
  purpose: 'Exercise the critic brief panel host',
  owner: 'integration tests',
  starting_state: 'a one-line greeting',
  inputs: ['src/greet.js'],
  expected_outputs: ['a friendlier greeting'],
  success_criteria: ['tests pass'],
  failure_criteria: ['a test fails'],
  dependencies: ['node'],
  iteration_limit: 5,
  timeout_behaviour: 'record pause',
  escalation_path: 'ask a person',
  quality_rubric: [
    {
      dimension: 'tests',
      evidence_command: 'echo 12',
      baseline: 10,
      target: 12,
      weight: 100,
      failure_threshold: 9,
      direction: 'higher-is-better',
      hard_gate: true,
    },
  ],
};

const form = {
  verdict: 'PASS',
  criticNext: 'test the empty name',
  evidencePaths: ['.loop/evidence/suite.txt'],
  decision: 'retain',
  outcome: 'continue',
  actions: [],
  measurements: [],
  note: null,
  blocker: null,
  evidence: null,
  recommendedNext: null,
};

/** A real webview panel whose webview ignores the html it is given, so its app never starts. */
function withheldHtml(real: vscode.WebviewPanel): vscode.WebviewPanel {
  const forward = <T extends object>(target: T, skip: PropertyKey | undefined): T =>
    new Proxy(target, {
      get: (t, key) => {
        const value = Reflect.get(t, key) as unknown;
        return typeof value === 'function' ? (value as (...a: unknown[]) => unknown).bind(t) : value;
      },
      set: (t, key, value) => key === skip || Reflect.set(t, key, value),
    });
  const webview = forward(real.webview, 'html');
  return new Proxy(forward(real, undefined), {
    get: (t, key) => (key === 'webview' ? webview : Reflect.get(t, key)),
  });
}

function git(root: string, ...args: string[]): void {
  execFileSync('git', args, { cwd: root, stdio: 'ignore' });
}

interface LedgerOnDisk {
  pending_brief: { brief_id: string } | null;
  iterations: { critic_verdict: string | null; critic_brief: string | null }[];
}

describe('critic brief panel host', function () {
  this.timeout(60_000);
  const root = workspaceRoot();
  const ledgerPath = join(root, '.loop', 'ledgers', `${SESSION}.json`);
  const originalGreet = readFileSync(join(root, GREET), 'utf8');
  const readLedger = (): LedgerOnDisk => JSON.parse(readFileSync(ledgerPath, 'utf8'));
  let panel: BriefPanel | undefined;

  before(async () => {
    git(root, 'init', '--quiet');
    git(root, 'config', 'user.email', 'it@example.invalid');
    git(root, 'config', 'user.name', 'integration');
    // Excluded through .git/info/exclude, so the workspace gains no .gitignore file.
    mkdirSync(join(root, '.git', 'info'), { recursive: true });
    writeFileSync(join(root, '.git', 'info', 'exclude'), '.loop/\n');
    git(root, 'add', '-A');
    git(root, 'commit', '--quiet', '-m', 'initial');
    const contracts = join(root, '.loop', 'contracts');
    mkdirSync(contracts, { recursive: true });
    writeFileSync(join(contracts, `${SESSION}.json`), JSON.stringify(contract));
    const opened = openOp(root, SESSION, {
      contractPath: join(contracts, `${SESSION}.json`),
      now: new Date(),
    });
    assert.equal(opened.exitCode, 0, JSON.stringify(opened.findings));
    mkdirSync(join(root, '.loop', 'evidence'), { recursive: true });
    writeFileSync(join(root, '.loop', 'evidence', 'suite.txt'), '12 passing\n');
  });

  after(() => {
    panel?.dispose();
    writeFileSync(join(root, GREET), originalGreet);
    // Later suites expect the plain fixture: the repository goes too. (VS Code's git extension,
    // which opened it, may log that it is gone; that is its noise, not a failure.)
    for (const path of [
      '.git',
      join('.loop', 'ledgers', `${SESSION}.json`),
      join('.loop', 'contracts', `${SESSION}.json`),
      join('.loop', 'evidence'),
    ])
      rmSync(join(root, path), { recursive: true, force: true });
  });

  async function assemble(verificationFile = '.loop/evidence/suite.txt'): Promise<AssembleResult> {
    const testing = await testingApi();
    const script = new ScriptedPrompter([
      { step: 'brief.session', pick: SESSION },
      { step: 'brief.change', pick: 'Working tree vs HEAD' },
      { step: 'brief.verificationSource', pick: 'From a file…' },
      { step: 'brief.verificationFile', text: verificationFile },
    ]);
    const using = testing.prompter.use(script);
    try {
      return (await vscode.commands.executeCommand('loopLedger.assembleBrief')) as AssembleResult;
    } finally {
      using.dispose();
      assert.deepEqual(script.remaining, []);
    }
  }

  it('checks the verification file on disk without blocking: a missing file and a folder are refused', async () => {
    // The session step lists sessions with listOpAsync; the file step's check is an async stat.
    await assert.rejects(
      assemble('.loop/evidence/missing.txt'),
      /refused: No such file: \.loop\/evidence\/missing\.txt/,
    );
    await assert.rejects(assemble('.loop/evidence'), /refused: Not a file: \.loop\/evidence/);
    assert.equal(readLedger().pending_brief ?? null, null, 'nothing is armed');
  });

  it('refuses with exit 8 and the engine’s finding when the working tree has no change', async () => {
    const result = await assemble();
    assert.equal(result.status, 'refused');
    if (result.status !== 'refused') return;
    assert.equal(result.outcome.exitCode, 8);
    assert.match(result.outcome.findings[0]!.message, /diff is empty/);
    assert.equal(readLedger().pending_brief ?? null, null, 'a refused brief arms nothing');
  });

  it('assembles a brief from git and arms it in the ledger', async () => {
    writeFileSync(join(root, GREET), 'exports.greet = (name) => `Hello, ${name}!`;\n');
    const result = await assemble();
    assert.equal(result.status, 'shown');
    if (result.status !== 'shown') return;
    panel = result.panel;
    const packet = result.outcome.payload!;
    assert.deepEqual(packet.scope.declared_paths, ['src/greet.js']);
    assert.equal(packet.scope.provenance, 'verified');
    assert.equal(readLedger().pending_brief?.brief_id, packet.brief_id);
  });

  it('refuses a verdict that arrives before the ready handshake, and records nothing', async () => {
    // A second panel over the same packet whose webview never loads the app (its html is
    // withheld), so no `ready` can arrive first, whatever the machine's timing.
    const silent = BriefPanel.revive(
      withheldHtml(vscode.window.createWebviewPanel('loopLedger.test', 'silent', vscode.ViewColumn.Beside)),
      panel!.currentState,
      root,
      {
        extensionUri: vscode.Uri.file(extensionPath()),
        output: vscode.window.createOutputChannel('Loop Ledger (test)'),
        isTrusted: () => true,
        storeWrites: () => undefined,
      },
    );
    try {
      const verdict = await silent.receive({
        type: 'submitVerdict',
        requestId: 'early',
        briefId: silent.briefId,
        form,
      });
      assert.equal(verdict.accepted, false);
      if (!verdict.accepted) assert.match(verdict.reason, /before the ready handshake/);
      assert.equal(readLedger().iterations.length, 0);
    } finally {
      silent.dispose();
    }
  });

  it('refuses malformed, oversized and out-of-order messages with a reason, and records nothing', async () => {
    const p = panel!;
    assert.deepEqual(await p.receive({ type: 'ready' }), { accepted: true, type: 'ready' });
    const refusals: [unknown, RegExp][] = [
      [undefined, /malformed/],
      [42, /malformed/],
      [{ type: 'submitVerdict' }, /malformed/],
      [
        { type: 'submitVerdict', requestId: 'm1', briefId: p.briefId, form: { ...form, verdict: 'LGTM' } },
        /form\.verdict/,
      ],
      [{ type: 'submitVerdict', requestId: 'm2', briefId: p.briefId, form, extra: true }, /malformed/],
      [
        {
          type: 'submitVerdict',
          requestId: 'big',
          briefId: p.briefId,
          form: { ...form, note: 'x'.repeat(100_000) },
        },
        /oversized/,
      ],
      [{ type: 'submitVerdict', requestId: 'stale', briefId: 'ffffffffffffffff', form }, /stale/],
      [{ type: 'openDiff', requestId: 'o1', path: '../../etc/passwd' }, /unknown path/],
    ];
    for (const [message, reason] of refusals) {
      const result = await p.receive(message);
      assert.equal(result.accepted, false, `accepted: ${JSON.stringify(message)?.slice(0, 120)}`);
      if (!result.accepted) assert.match(result.reason, reason);
    }
    const ledger = readLedger();
    assert.equal(ledger.iterations.length, 0);
    assert.equal(ledger.pending_brief?.brief_id, p.briefId);
  });

  it('shows the engine’s refusal for an incomplete verdict and leaves the brief pending', async () => {
    const posted: ToWebview[] = [];
    const listening = panel!.onDidPost((m) => posted.push(m));
    const result = await panel!.receive({
      type: 'submitVerdict',
      requestId: 'no-next',
      briefId: panel!.briefId,
      form: { ...form, criticNext: '   ' },
    });
    listening.dispose();
    assert.equal(result.accepted, true);
    const answer = posted.find((m) => m.type === 'verdictResult');
    assert.ok(answer && answer.type === 'verdictResult');
    assert.equal(answer.exitCode, 1);
    // The form's own words, not the CLI's flags.
    const shown = answer.findings.map((f) => f.message).join('\n');
    assert.match(shown, /“Verdict” needs “Critic next”: the single most valuable next improvement\./);
    assert.doesNotMatch(shown, /--[a-z]/);
    assert.equal(readLedger().iterations.length, 0);
    assert.equal(readLedger().pending_brief?.brief_id, panel!.briefId);
  });

  it('records a well-formed PASS once, spends the brief, and refuses a replay', async () => {
    const p = panel!;
    const posted: ToWebview[] = [];
    const listening = p.onDidPost((m) => posted.push(m));
    assert.equal(
      (await p.receive({ type: 'submitVerdict', requestId: 'pass', briefId: p.briefId, form })).accepted,
      true,
    );
    const replay = await p.receive({ type: 'submitVerdict', requestId: 'pass', briefId: p.briefId, form });
    const again = await p.receive({ type: 'submitVerdict', requestId: 'pass-2', briefId: p.briefId, form });
    listening.dispose();
    assert.equal(replay.accepted, false);
    assert.equal(again.accepted, false);
    if (!again.accepted) assert.match(again.reason, /already spent/);
    const answer = posted.find((m) => m.type === 'verdictResult');
    assert.ok(answer && answer.type === 'verdictResult' && answer.exitCode === 0, JSON.stringify(answer));
    const ledger = readLedger();
    assert.equal(ledger.iterations.length, 1);
    assert.equal(ledger.iterations[0]!.critic_verdict, 'PASS');
    assert.equal(ledger.iterations[0]!.critic_brief, p.briefId);
    assert.equal(ledger.pending_brief, null);
    assert.equal(p.currentState.spent?.record?.n, 1);
  });

  it('exports the packet as .loop/briefs/<id>.md and .json', async () => {
    const written = (await vscode.commands.executeCommand('loopLedger.exportBrief')) as {
      markdown: string;
      json: string;
    };
    assert.ok(written, 'the export command found the open panel');
    assert.equal(written.markdown, join(root, '.loop', 'briefs', `${panel!.briefId}.md`));
    assert.ok(existsSync(written.json));
    const markdown = readFileSync(written.markdown, 'utf8');
    assert.match(markdown, new RegExp(`# Critic brief ${panel!.briefId}`));
    assert.match(markdown, /Provenance: \*\*verified\*\*/);
    assert.equal(JSON.parse(readFileSync(written.json, 'utf8')).brief_id, panel!.briefId);
    rmSync(join(root, '.loop', 'briefs'), { recursive: true, force: true });
  });
});
