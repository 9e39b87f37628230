import assert from 'node:assert/strict';
import fc from 'fast-check';
import { isRefusal } from '../../../src/engine/refusal';
import { resolveCycle } from '../../../src/engine/repeat/classify';
import { answerRepeat } from '../../../src/engine/repeat/ledger';
import { EXIT_REASONS } from '../../../src/engine/repeat/state';
import { drive, type Step } from './drive';

const work = (what: string) => `Applied ${what}; 2 recommendations landed`;
const NONE = 'Analysis complete. No recommendations.';
const STUCK = 'Recommend extracting a shared validator; verification failed';
const stall = (post: string, answer?: string): Step => ({
  post,
  summary: STUCK,
  ...(answer ? { answer } : {}),
});
const classes = (d: ReturnType<typeof drive>) => d.runs.map((r) => r.record.classification);
const reported = (d: ReturnType<typeof drive>) => d.ledger.iterations.map((r) => r.reported_outcome);
const concerns = (...c: string[]) =>
  JSON.stringify({ summary: 'oscillating on formatPath', concerns: c, recommendations: ['x'] });

describe("repeat: classifyRepeat (the original repeat tool's outcomes, counters, stalls, cycles and exit reasons)", () => {
  it('settles when the state holds and the summary says nothing is left (settle at 3)', () => {
    const d = drive([
      { post: 'A', summary: work('8 recommendations') },
      { post: 'B', summary: work('2 follow-on fixes') },
      { post: 'B', summary: NONE },
    ]);
    assert.deepEqual(classes(d), ['continuing', 'continuing', 'settled']);
    assert.deepEqual(reported(d), ['continue', 'continue', 'complete']);
    assert.equal(d.state.exit_reason, 'settled');
    assert.equal(d.ledger.status, 'closed');
    assert.equal(d.ledger.final_outcome, 'complete');
    assert.deepEqual(d.ledger.completed_actions, ['repeat-1', 'repeat-2', 'repeat-3']);
  });

  it('a held state with an ambiguous summary is a stall, not a settle; the ledger stays open', () => {
    const d = drive([
      { post: 'A', summary: work('x') },
      { post: 'A', summary: 'done.' },
    ]);
    assert.deepEqual(classes(d), ['continuing', 'stalled']);
    // circular-state would have turned this into a terminal revise: repeat records replace it.
    assert.deepEqual(reported(d), ['continue', 'continue']);
    assert.equal(d.ledger.iterations[1]?.stall, null);
    assert.equal(d.ledger.status, 'open');
    assert.equal(d.state.consecutive_stalls, 1);
  });

  it('three consecutive stalls pause with the first-threshold options', () => {
    const d = drive([stall('S0'), stall('S0'), stall('S0')]);
    assert.deepEqual(classes(d), ['stalled', 'stalled', 'stalled']);
    assert.deepEqual(reported(d), ['continue', 'continue', 'pause']);
    assert.equal(d.state.status, 'paused');
    assert.equal(d.state.pending?.kind, 'stall-first');
    assert.deepEqual(d.state.pending?.options, ['retry', 'skip', 'abandon', 'change-scope']);
    assert.equal(d.ledger.final_outcome, 'pause');
    assert.deepEqual(
      [d.state.consecutive_stalls, d.state.total_stalls, d.state.first_pause_count],
      [3, 3, 1],
    );
  });

  it('after a retry the counter resets; the second pause is the deeper one (no retry)', () => {
    const d = drive([stall('S0'), stall('S0'), stall('S0', 'retry'), stall('S0'), stall('S0'), stall('S0')]);
    assert.equal(d.state.pending?.kind, 'stall-deeper');
    assert.deepEqual(d.state.pending?.options, ['skip', 'change-scope', 'abandon']);
    assert.deepEqual([d.state.total_stalls, d.state.first_pause_count], [6, 2]);
    assert.equal(d.state.resolutions['3'], 'retried');
    assert.equal(d.ledger.resumed, 1);
  });

  it('continuing resets consecutive stalls; total_stalls ≥ 6 makes even a first run of three deeper', () => {
    const d = drive([
      stall('S0'),
      stall('S0'),
      { post: 'A', summary: work('a') },
      stall('A'),
      stall('A'),
      { post: 'B', summary: work('b') },
      stall('B'),
      stall('B'),
      stall('B'),
    ]);
    assert.deepEqual(classes(d).filter((c) => c === 'stalled').length, 7);
    assert.equal(d.state.first_pause_count, 1);
    assert.equal(d.state.pending?.kind, 'stall-deeper');
  });

  it('skip continues with a deferral directive for the next run; abandon ends partial', () => {
    const skipped = drive([
      stall('S0'),
      stall('S0'),
      stall('S0', 'skip'),
      { post: 'A', summary: NONE },
      { post: 'A', summary: NONE },
    ]);
    assert.equal(skipped.runs[3]?.record.directive?.includes('deferred'), true);
    assert.equal(skipped.runs[4]?.record.directive, null, 'the directive reaches one run only');
    assert.equal(skipped.state.exit_reason, 'settled');
    assert.equal(skipped.state.resolutions['3'], 'skipped');
    const abandoned = drive([stall('S0'), stall('S0'), stall('S0', 'abandon')]);
    assert.equal(abandoned.state.exit_reason, 'abandoned-at-stall');
    assert.equal(abandoned.ledger.final_outcome, 'stop');
  });

  it('A→B→A with similar summaries cycles at 3; free text is comparably defensible → stay', () => {
    const d = drive([
      { post: 'A', summary: 'Extract early-return style in formatPath: clearer for extension' },
      { post: 'B', summary: 'Rewrite formatPath as a ternary: more compact' },
      { post: 'A', summary: 'Extract early-return style in formatPath, clearer for extension' },
    ]);
    assert.deepEqual(classes(d), ['continuing', 'continuing', 'cycled']);
    assert.equal(d.runs[2]?.record.cycle_with, 1);
    assert.equal(d.runs[2]?.record.resolution, 'stay');
    assert.equal(d.state.exit_reason, 'settled-via-cycle');
    assert.equal(d.ledger.final_outcome, 'complete');
  });

  it('a state match with dissimilar summaries is continuing, and the previous state never counts', () => {
    const d = drive([
      { post: 'A', summary: 'renamed helpers across the module' },
      { post: 'B', summary: 'Rewrite formatPath as a ternary' },
      { post: 'A', summary: 'inlined constants for the parser tables' },
    ]);
    assert.deepEqual(classes(d), ['continuing', 'continuing', 'continuing']);
  });

  it('forward escape when the alternate covers strictly more; a later settle is "Forward-escape resolved"', () => {
    const d = drive([
      { post: 'A', summary: concerns('readability') },
      { post: 'B', summary: concerns('readability', 'unused-param') },
      { post: 'A', summary: concerns('readability') },
      { post: 'C', summary: work('removed the unused parameter') },
      { post: 'C', summary: NONE },
    ]);
    assert.deepEqual(classes(d), ['continuing', 'continuing', 'cycled', 'continuing', 'settled']);
    assert.equal(d.runs[2]?.record.resolution, 'forward-escape');
    assert.deepEqual(reported(d).slice(2), ['continue', 'continue', 'complete']);
    assert.match(
      d.runs[3]?.record.directive ?? '',
      /oscillated .* State B is preferred because it also covers unused-param/,
    );
    assert.equal(d.state.exit_reason, 'forward-escape-resolved');
    assert.equal(d.state.forward_escape_attempts, 1);
  });

  it('a second escape attempt surfaces; abandon then reads "forward-escape failed"', () => {
    // The directive points at B; the step wanders to C and comes back to A: another cycle.
    const d = drive([
      { post: 'A', summary: concerns('readability') },
      { post: 'B', summary: concerns('readability', 'unused-param') },
      { post: 'A', summary: concerns('readability') },
      { post: 'C', summary: concerns('readability', 'unused-param') },
      { post: 'A', summary: concerns('readability'), answer: 'abandon' },
    ]);
    assert.deepEqual(classes(d), ['continuing', 'continuing', 'cycled', 'continuing', 'cycled']);
    assert.equal(d.runs[4]?.record.cycle_with, 3);
    assert.equal(d.runs[4]?.state.pending?.escape_failed, true);
    assert.equal(d.state.forward_escape_attempts, 2);
    assert.equal(d.state.exit_reason, 'forward-escape-failed');
    assert.equal(d.ledger.final_outcome, 'stop');
  });

  it('both sides with concerns of their own surface to the user: stay / forward-escape / abandon', () => {
    const script = (answer: string): Step[] => [
      { post: 'A', summary: concerns('readability', 'api-stability') },
      { post: 'B', summary: concerns('readability', 'brevity') },
      { post: 'A', summary: concerns('readability', 'api-stability'), answer },
      { post: 'D', summary: work('moved forward') },
    ];
    const paused = drive(
      script('')
        .slice(0, 3)
        .map(({ answer: _a, ...s }) => s),
    );
    assert.equal(paused.state.pending?.kind, 'cycle');
    assert.deepEqual(paused.state.pending?.options, ['stay', 'forward-escape', 'abandon']);
    assert.match(paused.state.pending?.text ?? '', /Current side.*\n.*Alternate side/);
    assert.equal(drive(script('stay')).state.exit_reason, 'settled-via-cycle');
    assert.equal(drive(script('abandon')).state.exit_reason, 'cycle-abandoned');
    const forward = drive(script('forward-escape'));
    assert.equal(forward.state.status, 'running');
    assert.equal(forward.runs[3]?.record.directive?.includes('oscillated'), true);
    assert.equal(forward.state.resolutions['3'], 'forward-escape');
  });

  it('max=N allows exactly N runs: the last one that would go on records stop (max-cap)', () => {
    const d = drive(
      [
        { post: 'A', summary: work('a') },
        { post: 'B', summary: work('b') },
        { post: 'C', summary: work('c') },
      ],
      { max: 2 },
    );
    assert.equal(d.runs.length, 2);
    assert.deepEqual(reported(d), ['continue', 'stop']);
    assert.equal(d.state.exit_reason, 'max-cap');
  });

  it('the contract iteration_limit caps too (effective cap = min(max, limit))', () => {
    const d = drive(
      [
        { post: 'A', summary: work('a') },
        { post: 'B', summary: work('b') },
        { post: 'C', summary: work('c') },
      ],
      { max: 10, iterationLimit: 2 },
    );
    assert.equal(d.runs.length, 2);
    assert.equal(d.state.exit_reason, 'max-cap');
    assert.equal(d.ledger.iterations[1]?.stall, null);
  });

  it('a pause at the last allowed run, answered retry, ends max-cap without another run', () => {
    const d = drive([stall('S0'), stall('S0'), stall('S0', 'retry'), stall('S0')], { max: 3 });
    assert.equal(d.runs.length, 3);
    assert.equal(d.state.exit_reason, 'max-cap');
    assert.equal(d.ledger.final_outcome, 'stop');
  });

  it('answers: unclear ones are read back, retry is not offered deeper, change-scope needs a target', () => {
    const paused = drive([stall('S0'), stall('S0'), stall('S0')]);
    const unclear = answerRepeat(paused.ledger, 'ok', {});
    assert.ok(isRefusal(unclear));
    assert.match(unclear.findings[0]?.message ?? '', /I read that as retry — please confirm/);
    const prefix = answerRepeat(paused.ledger, 'ab', {});
    assert.ok(isRefusal(prefix));
    assert.match(prefix.findings[0]?.message ?? '', /I read that as abandon/);
    const scope = answerRepeat(paused.ledger, 'change scope', {});
    assert.ok(isRefusal(scope));
    assert.match(scope.findings[0]?.message ?? '', /needs the new target/);
    const changed = answerRepeat(paused.ledger, 'Change Scope', { scope: ['src/**'] });
    assert.ok(!isRefusal(changed));
    assert.deepEqual(changed.state.scope, ['src/**']);
    const deeper = drive([
      stall('S0'),
      stall('S0'),
      stall('S0', 'retry'),
      stall('S0'),
      stall('S0'),
      stall('S0'),
    ]);
    const retry = answerRepeat(deeper.ledger, 'retry', {});
    assert.ok(isRefusal(retry));
    assert.match(retry.findings[0]?.message ?? '', /not one of skip \/ change-scope \/ abandon/);
  });

  it('resolveCycle: the coverage rule', () => {
    assert.equal(resolveCycle('free text', 'other text').kind, 'stay');
    assert.equal(resolveCycle(concerns('a'), concerns('a')).kind, 'stay');
    assert.equal(resolveCycle(concerns('a', 'b'), concerns('a')).kind, 'stay');
    assert.equal(resolveCycle(concerns('a'), concerns('a', 'b')).kind, 'forward');
    assert.equal(resolveCycle(concerns('a', 'c'), concerns('a', 'b')).kind, 'surface');
  });

  it('property: any sequence yields exactly one exit reason (or a pause), never more than max runs', () => {
    const states = fc.constantFrom('S0', 'A', 'B', 'C');
    const summaries = fc.constantFrom(
      NONE,
      STUCK,
      'done.',
      work('x'),
      concerns('a'),
      concerns('a', 'b'),
      concerns('a', 'c'),
    );
    const answers = fc.constantFrom(
      undefined,
      'retry',
      'skip',
      'abandon',
      'stay',
      'forward-escape',
      'change-scope',
    );
    const step = fc.record({ post: states, summary: summaries, answer: answers });
    fc.assert(
      fc.property(
        fc.array(step, { maxLength: 40 }),
        fc.option(fc.integer({ min: 1, max: 12 })),
        fc.integer({ min: 2, max: 30 }),
        (script, max, limit) => {
          const steps = script.map((s) => {
            const out: Step = { post: s.post, summary: s.summary, scope: ['src/**'] };
            if (s.answer !== undefined) out.answer = s.answer;
            return out;
          });
          let d;
          try {
            d = drive(steps, { max, iterationLimit: limit });
          } catch (error) {
            // An answer not offered at this pause is refused (the loop stays paused): legal.
            assert.match((error as Error).message, /not one of|not offered/);
            return;
          }
          assert.ok(d.runs.length <= (max ?? Infinity));
          assert.ok(d.runs.length <= limit);
          if (d.state.status === 'finished') {
            assert.ok(d.state.exit_reason !== null && d.state.exit_reason in EXIT_REASONS);
            assert.equal(d.ledger.status, 'closed');
            assert.equal(
              d.ledger.final_outcome,
              EXIT_REASONS[d.state.exit_reason].clean ? 'complete' : 'stop',
            );
          } else if (d.state.status === 'paused') {
            assert.equal(d.state.exit_reason, null);
            assert.equal(d.ledger.final_outcome, 'pause');
            assert.ok(d.state.pending);
          } else {
            assert.equal(d.ledger.status, 'open');
            assert.equal(d.runs.length, steps.length);
          }
          // every record carries exactly one of the four classifications
          for (const r of d.runs)
            assert.ok(['settled', 'stalled', 'cycled', 'continuing'].includes(r.record.classification));
        },
      ),
      { numRuns: 300 },
    );
  });
});
