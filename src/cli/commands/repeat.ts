// `loop-ledger repeat` (registration). The command's code — processes, hashing, prompts — loads
// only when `repeat` runs, so every other command keeps its start-up time.
export const raw = true;

export async function main(argv: string[]): Promise<number> {
  const command = await import('./repeat-main');
  return command.main(argv);
}
