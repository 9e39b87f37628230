// What the integration and e2e runners share: timestamped progress lines, exactly one
// `TIER <name>: N passed, M failed, K skipped` line however the run ends (scripts/test-all.mjs adds them
// up), and cleanup on success, failure, a crash or Ctrl-C.
const TIER_LINE = /^TIER \S+: \d+ passed, \d+ failed(, \d+ skipped)?$/m;

export function createTier(name) {
  const started = Date.now();
  let lineSeen = false;

  const lap = (what) => console.log(`[${name} ${((Date.now() - started) / 1000).toFixed(1)}s] ${what}`);

  /** Notes the runner's own TIER line when output carries one. */
  const watch = (text) => {
    if (TIER_LINE.test(text)) lineSeen = true;
  };

  /** The exit code; prints a failing TIER line when the tests never printed theirs. */
  const finish = (ok, reason) => {
    if (reason) console.error(`${name} tier: ${reason}`);
    if (!lineSeen) console.log(`TIER ${name}: 0 passed, 1 failed`);
    return ok ? 0 : 1;
  };

  /** Runs `main` (resolving to an exit code), always runs `cleanup`, and exits. */
  const run = async (main, cleanup) => {
    for (const signal of ['SIGINT', 'SIGTERM']) {
      process.once(signal, async () => {
        await cleanup();
        process.exit(finish(false, `interrupted (${signal})`) || 130);
      });
    }
    let exitCode;
    try {
      exitCode = await main();
    } catch (error) {
      exitCode = finish(false, error instanceof Error ? error.message : String(error));
    }
    await cleanup();
    lap('done');
    process.exit(exitCode);
  };

  return { lap, watch, finish, run };
}
