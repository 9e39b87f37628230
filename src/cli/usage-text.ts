// The top-level help, printed by `loop-ledger`, `--help` and `help`.
export const USAGE = `usage: loop-ledger <command> [flags]

Bounded, auditable, resumable work loops. Commands:
  open      open a loop under a contract (re-open a closed one as a new epoch)
  iterate   record one iteration with exactly one outcome
  brief     assemble a critic packet from a diff and arm it as the pending brief
  score     score measurements against the rubric (exit 6 on a breached hard gate)
  status    report a loop (exit 4 when it has no iterations)
  resume    re-enter a paused loop
  close     end an open loop with a terminal outcome
  validate  check a contract file without opening a loop
  list      list every session under the root
  checkpoint  workspace checkpoints of a session: list, diff, restore, prune
  store     a PostgreSQL ledger store (--store URL): migrate its schema, import, export
  repeat    repeat an inner step until the workspace settles (exit 10 partial, 11 paused)
  run       run the bounded agent harness (explorer, coder, checks, reviewer) and write a receipt
  wo        the work-order queue: kernels (run-state, compile, gates, obs, …) and \`wo run\`
  mcp       serve the tools to an MCP client (Claude Code, VS Code agent mode) over stdio

Run \`loop-ledger <command> --help\` for a command's flags.
Exit codes: 0 ok, 1 malformed, 2 usage/no ledger, 3 wrong state or busy, 4 no iterations,
5 action already complete, 6 hard gate breached, 7 retain over a breached gate,
8 unreadable or empty input, 9 diff does not cover the declared scope,
74 the system refused a file operation (disk full, permission denied…), 70 internal error (a bug).`;
