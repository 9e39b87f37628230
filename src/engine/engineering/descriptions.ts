// What each loop-engineering field means, in one sentence: the JSON schema's hover text, the
// `.loop.md` completion details and the template a quick fix inserts all read it from here.
import type { RequiredField } from './fields';

export const FIELD_HELP: Readonly<Record<RequiredField, string>> = {
  objective: 'The end state or result the loop is for.',
  mode: 'Goal (run to an end state or cap), Loop (while eligible work exists), Automation (started by a schedule or event) or AutoResearch (sandboxed experiments against a metric).',
  trigger: 'What starts a run: a manual start, a schedule, webhook, event, queue, timer, CI or PR.',
  scope: 'What the loop may touch.',
  'non-goals': 'What the loop must not attempt.',
  owner: 'Who answers for the loop.',
  inputs: 'What each run reads.',
  'artifacts path': 'Where artifacts, diffs and receipts are kept.',
  'state path': 'Where durable loop state lives (written atomically).',
  'work clock': 'Where elapsed work time is tracked.',
  'success metric': 'The measurable result that means done.',
  evidence: 'What shows the metric moved: fresh command output, diffs.',
  verifier: 'An independent check of the declared result — never the builder alone.',
  topology:
    'single-agent (default), maker-checker (ambiguous or risky evaluation) or manager-workers (independent work with an integration gate).',
  'max iterations': 'A finite, positive number of iterations, e.g. "4 iterations".',
  'time limit': 'A finite, positive time cap, e.g. "35 minutes".',
  budget: 'A finite, positive tool/token/cost cap, e.g. "18 tool calls" or "20 usd".',
  'review budget':
    'How much change a reviewer can check, e.g. "800 changed lines and 8 files" (strict: at most 1000 lines).',
  'stop condition': 'An evidence-based result or a finite cap — never "until satisfied".',
  'write-back': "Where each iteration's receipt is appended.",
  'permission boundary':
    'What the loop may do without asking; production, deploy, publish, external or shared needs approval and rollback.',
  recovery: 'How a regression is undone (and, for manager-workers, the integration gate).',
};

/** A placeholder value for each field, for the "insert missing fields" quick fix and New Contract. */
export const FIELD_TEMPLATE: Readonly<Record<RequiredField, string>> = {
  objective: 'Describe the end state.',
  mode: 'Goal',
  trigger: 'Manual start from fresh failure evidence.',
  scope: 'The package and its tests.',
  'non-goals': 'No dependency upgrades or external changes.',
  owner: 'Primary agent.',
  inputs: 'Failure log and current repository state.',
  'artifacts path': '.loop/artifacts/',
  'state path': '.loop/ledgers/',
  'work clock': '.loop/work-clock.md',
  'success metric': 'Tests and lint both exit zero.',
  evidence: 'Fresh command output and diff.',
  verifier: 'Deterministic test and lint commands.',
  topology: 'single-agent',
  'max iterations': '4 iterations',
  'time limit': '35 minutes',
  budget: '18 tool calls',
  'review budget': '800 changed lines and 8 files',
  'stop condition': 'Verifier passes or a finite cap fires.',
  'write-back': 'Append the receipt to the state path.',
  'permission boundary': 'Local-only writes; no production or external changes.',
  recovery: 'Restore the prior checkpoint after a regression.',
};
