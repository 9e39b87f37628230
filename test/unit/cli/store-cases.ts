// CLI cases run as they are on the ledger files and again on a PostgreSQL store (spend.test.ts
// runs them on the files; store/pg-cli-parity.test.ts on both, comparing every answer). A case
// opens session sess-1 under a contract, then runs its steps; each step gets `--root` and, unless
// it names one or is `list`, `--session sess-1`.
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ledgerPath, runCli, sampleContract, tempRoot, writeJson, type CliResult } from '../helpers/cli';

export const SESSION = 'sess-1';

/** Moves the epoch's opening back by `hours` (what a long-running loop would have). */
export interface AgeEpoch {
  ageEpochHours: number;
}

export interface CliCase {
  name: string;
  contract?: Record<string, unknown>;
  steps: (string[] | AgeEpoch)[];
  /** What the answers must be, on whichever store (results: one per argv step). */
  check(results: CliResult[]): void;
}

/** Where a case runs: extra arguments for every command, and how to age an epoch there. */
export interface CliTarget {
  name: string;
  args(root: string): string[];
  ageEpoch(root: string, session: string, hours: number): Promise<void>;
}

/** An `opened_at` moved back by `hours`, in the ledger's own second-precision form. */
export function agedOpening(hours: number): string {
  return new Date(Date.now() - hours * 3600_000).toISOString().slice(0, 19) + 'Z';
}

export const FILES: CliTarget = {
  name: 'files',
  args: () => [],
  ageEpoch: async (root, session, hours) => {
    // The ledger is small: no seal covers this key.
    const path = ledgerPath(root, session);
    const ledger = JSON.parse(readFileSync(path, 'utf8'));
    ledger.opened_at = agedOpening(hours);
    writeFileSync(path, `${JSON.stringify(ledger, null, 2)}\n`);
  },
};

export interface CaseRun {
  root: string;
  results: CliResult[];
}

export async function runCase(c: CliCase, target: CliTarget): Promise<CaseRun> {
  const root = tempRoot();
  const on = target.args(root);
  const contract = writeJson(join(root, 'contract.json'), sampleContract(c.contract ?? {}));
  const opened = runCli(['open', '--root', root, '--session', SESSION, '--contract', contract, ...on]);
  assert.equal(opened.code, 0, `${target.name}: open: ${opened.stderr}`);
  const results: CliResult[] = [];
  for (const step of c.steps) {
    if (!Array.isArray(step)) {
      await target.ageEpoch(root, SESSION, step.ageEpochHours);
      continue;
    }
    const args = step.map((a) => (a === '$CONTRACT' ? contract : a));
    const session = args.includes('--session') || args[0] === 'list' ? [] : ['--session', SESSION];
    results.push(runCli([...args, '--root', root, ...session, ...on]));
  }
  return { root, results };
}

/** Flag values `iterate` refuses (exit 2, naming the flag, writing nothing). */
export const SPEND_REFUSALS: [string[], RegExp][] = [
  [['--cost=-1'], /--cost -1: must be a number of 0 or more/],
  // Without `=` the argument parser itself refuses a value that looks like a flag.
  [['--cost', '-1'], /--cost/],
  [['--cost', 'abc'], /--cost abc: must be a number/],
  [['--cost', 'Infinity'], /--cost Infinity: must be a number/],
  [['--cost', '1e400'], /--cost 1e400: too large/],
  [['--tokens-in', '1.5'], /--tokens-in 1\.5: must be a whole number/],
  [['--tokens-out=-3'], /--tokens-out -3: must be a whole number/],
  [['--tokens-in', '9007199254740992'], /--tokens-in 9007199254740992: too large \(at most 2\^53/],
  [['--cost', '9007199254740993'], /--cost 9007199254740993: too large/],
];

const iterate = (...flags: string[]): string[] => ['iterate', '--outcome', 'continue', ...flags, '--json'];

const HOSTILE = `it's "quoted" \\ back\\slash \\" ünïcode ✓ 𝄞 '); DROP TABLE loop_ledger_iterations; -- $1 %s`;

export const STORE_CASES: CliCase[] = [
  {
    name: 'each refused --cost/--tokens value: exit 2 naming the flag, nothing recorded',
    steps: [
      ...SPEND_REFUSALS.map(([flags]) => ['iterate', '--outcome', 'continue', ...flags]),
      ['status', '--json'],
    ],
    check: (results) => {
      for (const [i, [, message]] of SPEND_REFUSALS.entries()) {
        assert.equal(results[i]?.code, 2, results[i]?.stderr);
        assert.match(results[i]?.stderr ?? '', message);
      }
      assert.equal(results.at(-1)?.json.iterations, 0, 'nothing recorded');
    },
  },
  {
    name: '--cost/--tokens-in/--tokens-out recorded only when given; 2^53 − 1 and a cost of 0 kept exactly',
    contract: { iteration_limit: 10 },
    steps: [
      iterate('--cost', '0.125', '--tokens-in', '1200', '--tokens-out', '340'),
      iterate('--tokens-out', '7'),
      iterate('--tokens-in', '9007199254740991', '--cost', '0'),
      ['status', '--json'],
    ],
    check: ([a, b, c, status]) => {
      assert.deepEqual([a?.json.cost_usd, a?.json.tokens_in, a?.json.tokens_out], [0.125, 1200, 340]);
      assert.equal(b?.json.tokens_out, 7);
      assert.deepEqual(
        Object.keys(b?.json ?? {}).filter((k) => k === 'cost_usd' || k === 'tokens_in'),
        [],
        'absent flags write no key',
      );
      assert.equal(c?.json.tokens_in, Number.MAX_SAFE_INTEGER);
      assert.equal(c?.json.cost_usd, 0);
      assert.deepEqual(status?.json.spend, {
        cost_usd: 0.125,
        tokens_in: 1200 + Number.MAX_SAFE_INTEGER,
        tokens_out: 347,
      });
    },
  },
  {
    name: 'cost_limit: the iteration that reaches it stops the loop (cost-exhausted), and the next is refused',
    contract: { iteration_limit: 10, cost_limit: 1 },
    steps: [iterate('--cost', '0.6'), iterate('--cost', '0.4'), ['status', '--json'], iterate()],
    check: ([a, b, status, after]) => {
      assert.equal(a?.json.outcome, 'continue');
      assert.equal(b?.code, 0, b?.stderr);
      assert.deepEqual(
        [b?.json.outcome, b?.json.stall, b?.json.reported_outcome],
        ['stop', 'cost-exhausted', 'continue'],
      );
      assert.deepEqual([status?.json.status, status?.json.final_outcome], ['closed', 'stop']);
      assert.equal(after?.code, 3);
    },
  },
  {
    name: 'token_limit counts tokens in plus out: tokens-exhausted',
    contract: { iteration_limit: 10, token_limit: 1000 },
    steps: [
      iterate('--tokens-in', '400', '--tokens-out', '100'),
      iterate('--tokens-in', '400', '--tokens-out', '100'),
    ],
    check: ([a, b]) => {
      assert.equal(a?.json.outcome, 'continue');
      assert.deepEqual([b?.json.outcome, b?.json.stall], ['stop', 'tokens-exhausted']);
    },
  },
  {
    name: 'time_limit counts seconds from the epoch opening: time-exhausted',
    contract: { iteration_limit: 10, time_limit: 3600 },
    steps: [iterate(), { ageEpochHours: 2 }, iterate()],
    check: ([a, b]) => {
      assert.equal(a?.json.outcome, 'continue');
      assert.equal(b?.code, 0, b?.stderr);
      assert.deepEqual([b?.json.outcome, b?.json.stall], ['stop', 'time-exhausted']);
    },
  },
  {
    name: 'past a cap the iteration limit is named first; a non-continue outcome is recorded as reported',
    contract: { iteration_limit: 2, cost_limit: 1 },
    steps: [iterate('--cost', '0.1'), iterate('--cost', '5')],
    check: ([, b]) => assert.equal(b?.json.stall, 'retries-exhausted'),
  },
  {
    name: 'a pause past the cost cap is a pause',
    contract: { cost_limit: 1 },
    steps: [['iterate', '--outcome', 'pause', '--cost', '5', '--json']],
    check: ([c]) => assert.deepEqual([c?.json.outcome, c?.json.stall], ['pause', null]),
  },
  {
    name: 'a re-opened epoch starts its cost from zero; status and list show the spend against the caps',
    contract: { iteration_limit: 10, cost_limit: 2, token_limit: 5000 },
    steps: [
      iterate('--cost', '2'),
      ['open', '--contract', '$CONTRACT'],
      iterate('--cost', '0.1', '--tokens-in', '100', '--tokens-out', '20'),
      iterate('--cost', '0.2', '--tokens-in', '50'),
      ['status', '--json'],
      ['status'],
      ['list', '--json'],
    ],
    check: ([a, , c, , status, human, list]) => {
      assert.equal(a?.json.stall, 'cost-exhausted');
      assert.equal(c?.json.outcome, 'continue');
      assert.deepEqual(status?.json.spend, { cost_usd: 2.3, tokens_in: 150, tokens_out: 20 });
      assert.deepEqual(status?.json.limits.cost_usd, { spent: 0.3, cap: 2 });
      assert.match(
        human?.stdout ?? '',
        /^spent: \$2\.3, 170 tokens \(150 in, 20 out\); cost 0\.3\/2 USD, tokens 170\/5000$/m,
      );
      assert.deepEqual(list?.json.sessions[0].spend, { cost_usd: 2.3, tokens_in: 150, tokens_out: 20 });
    },
  },
  {
    name: 'notes, errors, states and action ids with quotes, backslashes and unicode: stored and printed as given',
    steps: [
      iterate('--note', HOSTILE, '--error', HOSTILE, '--state', HOSTILE, '--action', HOSTILE),
      ['status', '--json'],
      ['iterate', '--outcome', 'continue', '--action', HOSTILE],
      iterate('--note', '\\"\'', '--state', 'ünï\\'),
    ],
    check: ([a, status, again, bare]) => {
      assert.equal(a?.code, 0, a?.stderr);
      assert.equal(a?.json.note, HOSTILE);
      assert.deepEqual(a?.json.actions, [HOSTILE]);
      assert.deepEqual(status?.json.completed_actions, [HOSTILE]);
      assert.equal(again?.code, 5, 'the same action id is refused as already complete');
      assert.equal(bare?.json.note, '\\"\'');
    },
  },
  {
    name: 'hostile session ids are refused by the grammar (exit 2), odd legal ones work',
    steps: [
      ...[`x'); DROP TABLE loop_ledger_sessions; --`, 'a"b', 'a\\b', 'ünï', '../etc', 'con', ''].map((id) => [
        'open',
        '--session',
        id,
        '--contract',
        '$CONTRACT',
      ]),
      ['open', '--session', 'Fix.1_ok-2', '--contract', '$CONTRACT'],
      ['list', '--json'],
    ],
    check: (results) => {
      for (const r of results.slice(0, 7)) assert.equal(r.code, 2, r.stderr);
      assert.equal(results[7]?.code, 0, results[7]?.stderr);
      assert.deepEqual(
        results[8]?.json.sessions.map((s: { session: string }) => s.session),
        ['Fix.1_ok-2', SESSION],
      );
    },
  },
];
