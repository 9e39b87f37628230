// Entry of the second CLI bundle: the commands that need the contract schema (see main.ts).
export * as open from './commands/open';
export * as validate from './commands/validate';
