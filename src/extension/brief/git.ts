// Runs git for the brief panel: always `execFile('git', args)`, never a shell, so nothing in a
// ref, a path or a file name can be read as shell syntax.
import { execFile } from 'node:child_process';

/** A 20 MB diff is ordinary for the engine; git output beyond this is refused, not truncated. */
const MAX_OUTPUT_BYTES = 256 * 1024 * 1024;

export class GitError extends Error {}

export function runGit(cwd: string, args: readonly string[]): Promise<string> {
  return new Promise((resolve, reject) => {
    execFile(
      'git',
      ['-c', 'core.quotepath=off', '--no-pager', ...args],
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

/** No pager, no prompts, no colour from the user's config: we read git's plain output. */
function gitEnv(): NodeJS.ProcessEnv {
  return { ...process.env, GIT_PAGER: 'cat', GIT_TERMINAL_PROMPT: '0', LC_ALL: 'C' };
}
