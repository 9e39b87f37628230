import * as l10n from '@vscode/l10n';
import type { PickItem, Prompter, StepPosition } from '../input';
import { BACK, type Answer } from '../input';
import { sessionDescription } from '../sessions/labels';
import { sessionOf, type SessionNode, type SessionsNode } from '../sessions/nodes';
import type { SessionsTreeProvider } from '../sessions/treeProvider';
import type { ReadableSession } from '../sessions/sessionEntry';

/** A command argument that names no session of this workspace's folders: refused, never used. */
export interface ForeignArgument {
  readonly refused: string;
}

/**
 * What a command was invoked on: a tree node (context menu), a `{root, session}` key (status bar,
 * other commands, tests), or nothing (the palette; the command then asks). An argument is only
 * ever used as a key: it is looked up among the sessions read from the workspace folders, so a
 * programmatic call cannot point a write at a file outside them.
 */
export async function sessionFromArgument(
  sessions: SessionsTreeProvider,
  argument: unknown,
): Promise<SessionNode | ForeignArgument | undefined> {
  if (argument === undefined || argument === null) return undefined;
  const key = sessionKeyOf(argument);
  if (!key) return { refused: l10n.t('the command was given an argument that is not a session') };
  await sessions.ready();
  return (
    sessions.findSession(key.root, key.session) ?? {
      refused: l10n.t('no session "{0}" in a workspace folder at {1}', key.session, key.root),
    }
  );
}

/** The (root, session) an argument names, read defensively: it may come from any extension. */
function sessionKeyOf(argument: unknown): { root: string; session: string } | undefined {
  if (typeof argument !== 'object') return undefined;
  const candidate = argument as { kind?: unknown; root?: unknown; session?: unknown };
  if (candidate.kind === 'session' || candidate.kind === 'epoch' || candidate.kind === 'iteration') {
    let node: unknown;
    try {
      node = sessionOf(argument as SessionsNode);
    } catch {
      return undefined; // a look-alike without the parents a real node has
    }
    const root = (node as { root?: { path?: unknown } } | undefined)?.root?.path;
    const session = (node as { entry?: { session?: unknown } } | undefined)?.entry?.session;
    return typeof root === 'string' && typeof session === 'string' ? { root, session } : undefined;
  }
  if (typeof candidate.root === 'string' && typeof candidate.session === 'string') {
    return { root: candidate.root, session: candidate.session };
  }
  return undefined;
}

export function isForeign(value: unknown): value is ForeignArgument {
  return typeof value === 'object' && value !== null && 'refused' in value;
}

/** Readable sessions the command can act on, newest first so the likely one is on top. */
export function candidates(
  sessions: SessionsTreeProvider,
  accept: (entry: ReadableSession) => boolean,
): ReadableSession[] {
  return sessions
    .sessionNodes()
    .sort((a, b) => b.mtimeMs - a.mtimeMs)
    .map((node) => node.entry)
    .filter((entry): entry is ReadableSession => entry.kind === 'ledger' && accept(entry));
}

/** Asks which session, among `entries`, with the tree's own description beside each id. */
export async function pickSession(
  prompter: Prompter,
  id: string,
  title: string,
  entries: readonly ReadableSession[],
  position?: StepPosition,
): Promise<Answer<ReadableSession>> {
  const several = new Set(entries.map((e) => e.root)).size > 1;
  const items: PickItem<ReadableSession>[] = entries.map((entry) => ({
    label: entry.session,
    description: sessionDescription(entry),
    detail: several ? entry.root : undefined,
    value: entry,
  }));
  const answer = await prompter.pickOne({
    id,
    title,
    placeholder: l10n.t('Which session?'),
    items,
    ...position,
  });
  return answer === BACK ? BACK : answer;
}

/**
 * The session a single-question command acts on: the invoking node's, else one picked from the
 * sessions `accept` admits. Returns a string when there is none to pick (the caller says it).
 * An unreadable ledger is returned as is: the caller refuses it with the store's verdict.
 */
export async function chooseSession(
  sessions: SessionsTreeProvider,
  prompter: Prompter,
  argument: unknown,
  pick: { id: string; title: string; accept: (entry: ReadableSession) => boolean; none: string },
): Promise<SessionNode['entry'] | 'cancelled' | { none: string } | ForeignArgument> {
  const node = await sessionFromArgument(sessions, argument);
  if (isForeign(node)) return node;
  if (node) return node.entry;
  await sessions.ready();
  const entries = candidates(sessions, pick.accept);
  if (entries.length === 0) return { none: pick.none };
  const answer = await pickSession(prompter, pick.id, pick.title, entries);
  return answer === undefined || answer === BACK ? 'cancelled' : answer;
}
