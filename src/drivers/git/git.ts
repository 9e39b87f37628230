// Runs git for the brief (the panel and the MCP tool; checkpoints reuse its pins): always
// `execFile('git', args)`, never a shell, so nothing in a ref, a path or a file name can be read
// as shell syntax. And never the user's idea of a diff:
// git config (global or the repository's own) can rename the a/ b/ prefixes, make paths relative,
// colour the output, run an external diff or a textconv program, or print signatures, any of
// which would change the text the engine checks. Every call pins those (VS Code's git extension
// does the same), and the caller runs no git at all in an untrusted workspace.
import { execFile } from 'node:child_process';

/** A 20 MB diff is ordinary for the engine; git output beyond this is refused, not truncated. */
const MAX_OUTPUT_BYTES = 256 * 1024 * 1024;

/** Config pinned on every call, whatever the user's or the repository's config says. */
export const PINNED_CONFIG = [
  'core.quotepath=off',
  'color.ui=false',
  'color.diff=false',
  'diff.mnemonicPrefix=false',
  'diff.noprefix=false',
  'diff.relative=false',
  'log.showSignature=false',
  'core.pager=cat',
] as const;

/**
 * Options every `diff` and `show` of file content takes: the standard prefixes, paths from the
 * repository root, no colour, no external diff, no textconv. (`--no-relative` needs git 2.28.)
 */
export const DIFF_OPTIONS = [
  '--no-color',
  '--no-ext-diff',
  '--no-textconv',
  '--no-relative',
  '--src-prefix=a/',
  '--dst-prefix=b/',
] as const;

/** Environment variables that would override the pins or point git at another repository. */
const UNSAFE_ENV = [
  'GIT_EXTERNAL_DIFF',
  'GIT_DIFF_OPTS',
  'GIT_DIR',
  'GIT_WORK_TREE',
  'GIT_CONFIG_PARAMETERS',
  'GIT_CONFIG_COUNT',
];

export class GitError extends Error {}

/** The full argv git is run with (exported for tests). */
export function gitArgv(args: readonly string[]): string[] {
  return [...PINNED_CONFIG.flatMap((setting) => ['-c', setting]), '--no-pager', ...args];
}

export function runGit(cwd: string, args: readonly string[]): Promise<string> {
  return new Promise((resolve, reject) => {
    execFile(
      'git',
      gitArgv(args),
      { cwd, maxBuffer: MAX_OUTPUT_BYTES, encoding: 'utf8', windowsHide: true, env: gitEnv() },
      (error, stdout, stderr) => {
        if (error) {
          const why = stderr.trim().split('\n')[0] || error.message;
          reject(new GitError(`git ${args.join(' ')}: ${why}`));
        } else {
          resolve(stdout);
        }
      },
    );
  });
}

/** No pager, no prompts, no config or diff driver from the environment: git's plain output. */
function gitEnv(): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env, GIT_PAGER: 'cat', GIT_TERMINAL_PROMPT: '0', LC_ALL: 'C' };
  for (const name of Object.keys(env)) {
    if (UNSAFE_ENV.includes(name) || /^GIT_CONFIG_(KEY|VALUE)_\d+$/.test(name)) delete env[name];
  }
  return env;
}
