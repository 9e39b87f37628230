// `contextValue` for tree items: a kind from an enum plus `+flag` suffixes, matched in
// package.json menus with `viewItem =~ /^session\b.*\+open/` (the GitLens convention).

export enum NodeKind {
  Folder = 'folder',
  Session = 'session',
  /** A ledger file that could not be read: shown, never hidden, and never written to. */
  Broken = 'brokenSession',
  Epoch = 'epoch',
  Iteration = 'iteration',
  /** "Show older iterations…" under an epoch of a long ledger. */
  Older = 'olderIterations',
}

export enum NodeFlag {
  Open = 'open',
  Paused = 'paused',
  Closed = 'closed',
  /** Read from the original engine's folder. */
  Legacy = 'legacy',
  /** The current epoch of its session. */
  Current = 'current',
  /** An iteration whose reported `continue` a stall predicate turned into another outcome. */
  StallPromoted = 'stallPromoted',
  Scored = 'scored',
  /** Its repeat is unfinished (interrupted, paused, or its follow-up unconfirmed): Resume continues it. */
  RepeatUnfinished = 'repeatUnfinished',
  /** A harness run (loop-ledger run) is in progress for this session in this window. */
  Running = 'running',
  /** An iteration whose record carries a workspace checkpoint: compare and restore apply. */
  Checkpoint = 'checkpoint',
}

export function contextValue(kind: NodeKind, flags: readonly (NodeFlag | false | undefined)[] = []): string {
  const set = flags.filter((flag): flag is NodeFlag => typeof flag === 'string');
  return [kind, ...set].join('+');
}
