// The SHAPE of a loop contract, declared once. The JSON schema the editor validates against is
// generated from this (draft-07, input side), so every description here is what an author sees
// on hover. The finding ORDER and wording of `validateContract` are the reference's and are
// written by hand in validate.ts; this file only fixes which keys exist and what kind of value
// each one takes.
import { z } from 'zod';
import { LIMIT_FIELDS } from '../spend';
import { DIRECTIONS } from '../types';

/**
 * Attach a plain and a Markdown description (VS Code shows the Markdown one on hover), plus any
 * other JSON-schema keyword VS Code understands (`defaultSnippets`, `markdownEnumDescriptions`).
 */
function described<T extends z.ZodType>(
  schema: T,
  description: string,
  markdownDescription?: string,
  editorHints: Record<string, unknown> = {},
): T {
  return schema.meta({
    description,
    markdownDescription: markdownDescription ?? description,
    ...editorHints,
  });
}

/** A string holding at least one non-whitespace character. */
const nonBlankText = z
  .string()
  .regex(/\S/, 'must not be blank')
  // Without it the editor would say "does not match the pattern \S".
  .meta({ patternErrorMessage: 'Must not be blank: write what is meant.' });

/**
 * Completion snippets for a new rubric dimension. In VS Code's JSON snippets a string starting
 * with `^` is inserted unquoted, which is how numbers and booleans get tab stops.
 */
const DIMENSION_SNIPPETS = [
  {
    label: 'New rubric dimension',
    description: 'A measured dimension with every required key; the evidence command must really run.',
    body: {
      dimension: '${1:failing-tests}',
      evidence_command: '${2:npm test 2>&1 | grep -c failing}',
      baseline: '^${3:10}',
      target: '^${4:0}',
      weight: '^${5:1}',
      failure_threshold: '^${6:12}',
      direction: '${7|lower-is-better,higher-is-better|}',
      hard_gate: '^${8|true,false|}',
    },
  },
  {
    label: 'New must-not-regress dimension',
    description: 'A line to hold: the target equals the baseline and must_not_regress is true.',
    body: {
      dimension: '${1:lint-errors}',
      evidence_command: '${2:npx eslint . --format compact | grep -c error}',
      baseline: '^${3:0}',
      target: '^${3:0}',
      weight: '^${4:1}',
      failure_threshold: '^${5:0}',
      direction: '${6|lower-is-better,higher-is-better|}',
      hard_gate: '^${7|true,false|}',
      must_not_regress: '^true',
    },
  },
];

/**
 * What the free-form contract fields accept: non-blank text, a non-empty list, or any other
 * non-null JSON value (objects, numbers and booleans are accepted as written, as the original
 * engine accepts them).
 */
function declaration(description: string, markdownDescription?: string) {
  return described(
    z.union([
      nonBlankText,
      z.array(z.unknown()).min(1),
      z.record(z.string(), z.unknown()),
      z.number(),
      z.boolean(),
    ]),
    description,
    markdownDescription,
  );
}

export const directionSchema = described(
  z.enum(DIRECTIONS),
  'Which way a measurement improves. It must agree with the baseline → target ordering.',
  'Which way a measurement improves: `higher-is-better` (target above baseline) or `lower-is-better` ' +
    '(target below baseline). Declared, then cross-checked against the two numbers.',
  {
    markdownEnumDescriptions: [
      'The number should go **up**: `target` is above `baseline`, and falling below `failure_threshold` breaches the gate.',
      'The number should go **down**: `target` is below `baseline`, and rising above `failure_threshold` breaches the gate.',
    ],
  },
);

export const rubricDimensionSchema = described(
  z
    .object({
      dimension: described(
        nonBlankText,
        'The dimension name, unique within the rubric; measurements are keyed on it.',
        'The dimension name, unique within the rubric, e.g. `test-failures`. Measurements and scores are keyed on it.',
      ),
      evidence_command: described(
        nonBlankText,
        'The shell command whose output gives this number. Checked without running: no placeholders, every program must resolve.',
        'The shell command whose output gives this number, e.g. `npm test 2>&1 | grep -c failing`. ' +
          'It is never run by Loop Ledger, but it must parse, name programs that exist, and carry no ' +
          'placeholder such as `--root R`, `<session-id>` or `TBD`.',
      ),
      baseline: described(
        z.number(),
        'The measurement before the loop starts (a finite number).',
        'The measurement before the loop starts — ideally copied from a real run of `evidence_command`.',
      ),
      target: described(
        z.number(),
        'The measurement that counts as done. Must differ from the baseline unless must_not_regress is true.',
        'The measurement that counts as done (scores 100). Must differ from `baseline` and lie in the ' +
          '`direction` — unless `must_not_regress` is true, when it must equal `baseline`.',
      ),
      weight: described(
        z.number().positive(),
        'This dimension’s share of the weighted total; greater than zero.',
        'This dimension’s share of the weighted total; must be greater than zero.',
      ),
      failure_threshold: described(
        z.number(),
        'The worst acceptable measurement; past it the dimension’s gate fails.',
        'The worst acceptable measurement. Past it (above for `lower-is-better`, below for ' +
          '`higher-is-better`) the gate fails; a failed `hard_gate` fails the whole verdict.',
      ),
      direction: directionSchema,
      hard_gate: described(
        z.boolean(),
        'true if breaching failure_threshold fails the verdict whatever the total.',
        '`true` if breaching `failure_threshold` fails the verdict whatever the weighted total; `false` for a soft dimension.',
      ),
      must_not_regress: described(
        z.boolean().optional(),
        'Optional. true for a line to hold (target equals baseline); absent means false.',
        'Optional. `true` for a dimension whose job is to stay where it is: `target` must equal `baseline`, ' +
          'and the score is 100 while the threshold holds, 0 once it is breached. Absent means `false`.',
      ),
    })
    .strict(),
  'One measurable quality dimension: eight required keys plus the optional must_not_regress.',
  'One measurable quality dimension: the eight required keys plus the optional `must_not_regress`. No other key is allowed.',
  { defaultSnippets: DIMENSION_SNIPPETS },
);

export const contractSchema = described(
  z
    .object({
      purpose: declaration(
        'Why the loop exists, in one or two sentences.',
        'Why the loop exists, in one or two sentences — the outcome, not the activity.',
      ),
      owner: declaration(
        'Who answers for the loop (a person, team or agent).',
        'Who answers for the loop: a person, a team or an agent role.',
      ),
      starting_state: declaration(
        'What is true before the first iteration (branch, failing checks, known state).',
        'What is true before the first iteration: branch, failing checks, the state a reader can verify.',
      ),
      inputs: declaration(
        'What the loop works from: files, issues, data. A non-empty list of non-blank items works well.',
        'What the loop works from — files, issues, data. A non-empty list with no blank item works well.',
      ),
      expected_outputs: declaration(
        'What the loop leaves behind when it completes.',
        'What the loop leaves behind when it completes: changed files, reports, artefacts.',
      ),
      success_criteria: declaration(
        'Checkable conditions that mean the work is done.',
        'Checkable conditions that mean the work is done — each one decidable without a judgment call.',
      ),
      failure_criteria: declaration(
        'Conditions that mean the loop must stop short of done.',
        'Conditions that mean the loop must stop short of done.',
      ),
      dependencies: declaration(
        'What the loop needs from outside (services, tools, people).',
        'What the loop needs from outside: services, tools, people. An unreachable one stalls the loop.',
      ),
      iteration_limit: described(
        z.number().int().min(1),
        'The most iterations the loop may run: a whole number, 1 or more.',
        'The most iterations the loop may run: a whole number, `1` or more. Reaching it stalls the loop (`retries-exhausted`).',
      ),
      cost_limit: described(
        z.number().positive().optional(),
        "Optional. The most US dollars an epoch may spend (the sum of its iterations' --cost).",
        "Optional. The most US dollars an epoch may spend: the sum of its iterations' `--cost`. " +
          'Reaching it stops the loop (`cost-exhausted`), as `iteration_limit` does.',
      ),
      token_limit: described(
        z.number().int().positive().optional(),
        'Optional. The most tokens (in plus out) an epoch may spend: a whole number, 1 or more.',
        "Optional. The most tokens an epoch may spend: the sum of its iterations' `--tokens-in` and " +
          '`--tokens-out`. Reaching it stops the loop (`tokens-exhausted`).',
      ),
      time_limit: described(
        z.number().positive().optional(),
        'Optional. The most seconds an epoch may run, from its opening to an iteration.',
        'Optional. The most seconds an epoch may run, counted from its `open` to the iteration being ' +
          'recorded. Reaching it stops the loop (`time-exhausted`).',
      ),
      timeout_behaviour: declaration(
        'What happens when the loop runs out of iterations or time.',
        'What happens when the loop runs out of iterations or time.',
      ),
      escalation_path: declaration(
        'Who or what is told when the loop escalates, and how.',
        'Who or what is told when the loop escalates, and how.',
      ),
      quality_rubric: described(
        z.array(rubricDimensionSchema).min(1),
        'The measurable dimensions that score each iteration; at least one.',
        'The measurable dimensions that score each iteration; at least one. Each names the command that produces its number.',
      ),
      checkpoint: described(
        z.boolean().optional(),
        'Optional. true: every iterate takes a workspace checkpoint unless --no-checkpoint.',
        'Optional. `true`: every `iterate` on this loop takes a workspace checkpoint (a git commit under ' +
          '`refs/loop-ledger/`) as if `--checkpoint` were given; `--no-checkpoint` opts one iterate out.',
      ),
    })
    .strict(),
  'A Loop Ledger contract: exactly these twelve fields, all required, plus the optional cost_limit, token_limit, time_limit and checkpoint.',
  'A Loop Ledger (work-loop) contract: exactly these twelve fields, all required, plus the optional caps ' +
    '`cost_limit`, `token_limit` and `time_limit` and the optional `checkpoint` switch; no other field is allowed.',
);

type AnyContractField = ReturnType<typeof contractSchema.keyof>['options'][number];
export type ContractField = Exclude<AnyContractField, (typeof LIMIT_FIELDS)[number] | 'checkpoint'>;
/** The optional switches beside the caps (each a boolean). */
export const SWITCH_FIELDS = ['checkpoint'] as const;
/** The twelve required contract fields, in the order findings are reported. */
export const CONTRACT_FIELDS = contractSchema
  .keyof()
  .options.filter(
    (key): key is ContractField =>
      !(LIMIT_FIELDS as readonly string[]).includes(key) &&
      !(SWITCH_FIELDS as readonly string[]).includes(key),
  );

/** Every key a dimension may carry, in the order missing keys are reported. */
export const DIMENSION_KEYS = rubricDimensionSchema.keyof().options;
/** The one key a dimension may leave out. */
export const OPTIONAL_DIMENSION_KEYS: readonly string[] = ['must_not_regress'];
/** The eight keys every dimension must carry. */
export const REQUIRED_DIMENSION_KEYS = DIMENSION_KEYS.filter((key) => !OPTIONAL_DIMENSION_KEYS.includes(key));
