// `loop-ledger run`: registered as a drop-in command that parses its own argv. The harness code
// (git, processes, TOML) loads only when `run` is called, so other commands start as fast as before.
export const raw = true;

export async function main(argv: string[]): Promise<number> {
  const { main: runMain } = await import('./run-main');
  return runMain(argv);
}
