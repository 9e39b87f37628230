// Answers to a paused repeat. An answer that is not clearly one of the offered options is read
// back ("I read that as retry — please confirm") and the pause continues: nothing acts on a guess.
import { escapeDirective } from './classify';
import type { ExitReason, RepeatState, Resolution } from './state';

export type AnswerReading =
  { kind: 'clear'; option: string } | { kind: 'unclear'; guess: string | null; message: string };

const AGREEMENT = /^(ok|okay|sure|yes|yeah|yep|fine|go|go ahead|whatever|yeah whatever|alright|k)[.!]*$/;

function canonical(text: string): string {
  return text
    .trim()
    .toLowerCase()
    .replace(/[\s_]+/g, '-');
}

export function interpretAnswer(options: readonly string[], text: string): AnswerReading {
  const word = canonical(text);
  if (options.includes(word)) return { kind: 'clear', option: word };
  const starts = word === '' ? [] : options.filter((o) => o.startsWith(word));
  const guess =
    starts.length === 1
      ? (starts[0] as string)
      : AGREEMENT.test(text.trim().toLowerCase())
        ? (options[0] ?? null)
        : null;
  const message = guess
    ? `"${text.trim()}" is not one of ${options.join(' / ')}; I read that as ${guess} — please confirm with ${guess} or choose another option`
    : `"${text.trim()}" is not one of ${options.join(' / ')}; please choose one`;
  return { kind: 'unclear', guess, message };
}

export interface AnswerEffect {
  state: RepeatState;
  /** Continue running, or end with this reason (stay or abandon). */
  exitReason: ExitReason | null;
  resolution: Resolution | null;
}

export interface ScopeChange {
  scope?: string[];
  exclude?: string[];
  inner?: string;
}

/**
 * Applies a clear answer to the pending question. `change-scope` needs a new scope or inner
 * command (returned as an error message when missing); retry is not offered at the deeper pause.
 */
export function applyAnswer(
  state: RepeatState,
  option: string,
  change: ScopeChange = {},
): AnswerEffect | string {
  const pending = state.pending;
  if (pending === null) return 'nothing to answer: the repeat is not waiting for a decision';
  if (!pending.options.includes(option))
    return `${option} is not offered here (choose ${pending.options.join(' / ')})`;
  const at = String(pending.iteration);
  const settled = (resolution: Resolution | null, extra: Partial<RepeatState> = {}): RepeatState => ({
    ...state,
    ...extra,
    pending: null,
    status: 'running',
    resolutions: resolution ? { ...state.resolutions, [at]: resolution } : state.resolutions,
  });
  const event = (text: string) => [...state.events, `iteration ${at}: user chose ${text}`];
  if (pending.kind === 'cycle') {
    if (option === 'stay')
      return {
        state: settled('stay', { events: event('stay') }),
        exitReason: 'settled-via-cycle',
        resolution: 'stay',
      };
    if (option === 'abandon') {
      return {
        state: settled(null, { events: event('abandon') }),
        exitReason: pending.escape_failed ? 'forward-escape-failed' : 'cycle-abandoned',
        resolution: null,
      };
    }
    const directive = escapeDirective(
      pending.iteration,
      pending.alternate ?? pending.iteration - 1,
      'the user chose it',
    );
    return {
      state: settled('forward-escape', {
        events: event('forward-escape'),
        directive,
        escaped: true,
        forward_escape_attempts: state.forward_escape_attempts + 1,
      }),
      exitReason: null,
      resolution: 'forward-escape',
    };
  }
  const reset = { consecutive_stalls: 0 };
  if (option === 'abandon')
    return {
      state: settled(null, { ...reset, events: event('abandon') }),
      exitReason: 'abandoned-at-stall',
      resolution: null,
    };
  if (option === 'retry')
    return {
      state: settled('retried', { ...reset, events: event('retry') }),
      exitReason: null,
      resolution: 'retried',
    };
  if (option === 'skip') {
    const directive = `The user deferred the recommendation that kept stalling ("${pending.recommendation}" at iteration ${at}); do not propose it again in this loop.`;
    return {
      state: settled('skipped', { ...reset, directive, events: event('skip') }),
      exitReason: null,
      resolution: 'skipped',
    };
  }
  // change-scope: a new target, never a guess at one.
  if (!change.scope?.length && !change.exclude?.length && !change.inner) {
    return 'change-scope needs the new target: --scope/--exclude globs or a new inner command';
  }
  const what = [
    change.scope?.length ? `scope ${change.scope.join(' ')}` : '',
    change.exclude?.length ? `exclude ${change.exclude.join(' ')}` : '',
    change.inner ? `inner "${change.inner}"` : '',
  ]
    .filter(Boolean)
    .join(', ');
  return {
    state: settled(null, {
      ...reset,
      scope: change.scope?.length ? [...change.scope] : state.scope,
      exclude: change.exclude?.length ? [...change.exclude] : state.exclude,
      inner: change.inner ?? state.inner,
      events: event(`change scope (${what})`),
    }),
    exitReason: null,
    resolution: null,
  };
}
