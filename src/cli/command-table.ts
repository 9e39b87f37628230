// Every command the CLI has, each loaded when it runs (see start.ts). The build reads the
// everyday commands' names from COMMANDS below to make each its own bundle (scripts/build.mjs):
// keep one `name: () => import('./commands/name'),` per line.
import type { CommandModule, Load, RawCommandModule } from './start';

/** Drop-in commands with argv conventions of their own; each adds one line here. */
export const RAW_COMMANDS: Record<string, Load<RawCommandModule>> = {
  mcp: () => import('./commands/mcp'),
  repeat: () => import('./commands/repeat'),
  run: () => import('./commands/run'),
  wo: () => import('./commands/wo'),
};

export const COMMANDS: Record<string, Load<CommandModule>> = {
  open: () => import('./commands/open'),
  iterate: () => import('./commands/iterate'),
  brief: () => import('./commands/brief'),
  score: () => import('./commands/score'),
  status: () => import('./commands/status'),
  resume: () => import('./commands/resume'),
  close: () => import('./commands/close'),
  validate: () => import('./commands/validate'),
  list: () => import('./commands/list'),
  checkpoint: () => import('./commands/checkpoint'),
  store: () => import('./commands/store'),
};
