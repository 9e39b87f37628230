// The one way checkpoint code runs git: `spawnSync('git', argv)` or, off the extension host's
// thread, `spawn('git', argv)` (never a shell), with the same
// pinned config as every other git call (src/drivers/git/git.ts) plus the settings that would otherwise
// let a checkpoint change the user's repository or run the user's programs: no automatic gc or
// maintenance (either could repack the user's refs), no reflog for our refs, no fsmonitor hook,
// no signing prompt. The environment is scrubbed of variables that point git elsewhere; the
// repository and the private index are always passed explicitly.
import type * as ChildProcess from 'node:child_process';
import { PINNED_CONFIG } from '../git/git';

/**
 * node:child_process, loaded when git first runs: every `iterate` reaches this module, and only
 * one with a checkpoint runs git (loading it, with the stream and net modules it pulls in, is a
 * few percent of an `iterate` that never needs it).
 */
let childProcess: typeof ChildProcess | undefined;
function processes(): typeof ChildProcess {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  childProcess ??= require('node:child_process') as typeof ChildProcess;
  return childProcess;
}

const MAX_OUTPUT_BYTES = 512 * 1024 * 1024;

const CHECKPOINT_CONFIG = [
  'gc.auto=0',
  'maintenance.auto=false',
  'core.logAllRefUpdates=false',
  'core.fsmonitor=false',
  'core.untrackedCache=false',
  'commit.gpgSign=false',
  'advice.addEmbeddedRepo=false',
  'advice.addIgnoredFile=false',
] as const;

/** Environment variables that would redirect git or override the pins. */
const UNSAFE_ENV = new Set([
  'GIT_DIR',
  'GIT_WORK_TREE',
  'GIT_INDEX_FILE',
  'GIT_OBJECT_DIRECTORY',
  'GIT_ALTERNATE_OBJECT_DIRECTORIES',
  'GIT_COMMON_DIR',
  'GIT_NAMESPACE',
  'GIT_EXTERNAL_DIFF',
  'GIT_DIFF_OPTS',
  'GIT_CONFIG_PARAMETERS',
  'GIT_CONFIG_COUNT',
  'GIT_LITERAL_PATHSPECS',
  'GIT_GLOB_PATHSPECS',
  'GIT_NOGLOB_PATHSPECS',
  'GIT_ICASE_PATHSPECS',
]);

/** Where git runs: the work tree, and for a shadow repository its git dir. */
export interface GitPlace {
  /** The top of the work tree (git runs here). */
  top: string;
  /** Set for a shadow repository: passed as --git-dir with --work-tree=top. */
  shadowGitDir?: string;
}

export interface GitCall {
  /** A private index file (GIT_INDEX_FILE); the user's index is never named. */
  index?: string;
  input?: string | Buffer;
  env?: Record<string, string>;
}

export interface GitResult {
  code: number;
  stdout: Buffer;
  stderr: string;
}

export class GitFailed extends Error {}

/** The full argv (exported for tests). */
export function checkpointGitArgv(place: GitPlace, args: readonly string[]): string[] {
  const where = place.shadowGitDir ? [`--git-dir=${place.shadowGitDir}`, `--work-tree=${place.top}`] : [];
  return [
    ...[...PINNED_CONFIG, ...CHECKPOINT_CONFIG].flatMap((setting) => ['-c', setting]),
    '--no-pager',
    '--no-optional-locks',
    ...where,
    ...args,
  ];
}

function gitEnv(call: GitCall): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    GIT_PAGER: 'cat',
    GIT_TERMINAL_PROMPT: '0',
    GIT_OPTIONAL_LOCKS: '0',
    LC_ALL: 'C',
  };
  for (const name of Object.keys(env)) {
    if (UNSAFE_ENV.has(name) || /^GIT_CONFIG_(KEY|VALUE)_\d+$/.test(name)) delete env[name];
  }
  if (call.index !== undefined) env.GIT_INDEX_FILE = call.index;
  return { ...env, ...call.env };
}

/** Runs git; a git that cannot be started at all throws GitFailed. */
export function git(place: GitPlace, args: readonly string[], call: GitCall = {}): GitResult {
  const r = processes().spawnSync('git', checkpointGitArgv(place, args), {
    cwd: place.top,
    input: call.input,
    env: gitEnv(call),
    maxBuffer: MAX_OUTPUT_BYTES,
    windowsHide: true,
  });
  if (r.error) throw new GitFailed(`git could not be run: ${r.error.message}`);
  return { code: r.status ?? -1, stdout: r.stdout, stderr: r.stderr.toString('utf8') };
}

/** Runs git and returns its stdout; a non-zero exit throws GitFailed with git's first line. */
export function gitOk(place: GitPlace, args: readonly string[], call: GitCall = {}): Buffer {
  const r = git(place, args, call);
  if (r.code !== 0) {
    const why = r.stderr.trim().split('\n')[0] || `exit ${r.code}`;
    throw new GitFailed(`git ${args[0]}: ${why}`);
  }
  return r.stdout;
}

/** The same pinned call as `git`, without blocking the thread (for the extension host). */
export function gitAsync(place: GitPlace, args: readonly string[], call: GitCall = {}): Promise<GitResult> {
  return new Promise((resolve, reject) => {
    const child = processes().spawn('git', checkpointGitArgv(place, args), {
      cwd: place.top,
      env: gitEnv(call),
      windowsHide: true,
    });
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    let size = 0;
    let failed: Error | null = null;
    const collect = (into: Buffer[]) => (chunk: Buffer) => {
      size += chunk.length;
      if (size > MAX_OUTPUT_BYTES && failed === null) {
        failed = new GitFailed(`git ${args[0]}: more than ${MAX_OUTPUT_BYTES} bytes of output`);
        child.kill('SIGKILL');
      }
      if (failed === null) into.push(chunk);
    };
    child.stdout.on('data', collect(out));
    child.stderr.on('data', collect(err));
    child.on('error', (error) => {
      failed ??= new GitFailed(`git could not be run: ${error.message}`);
    });
    child.on('close', (code) => {
      if (failed !== null) return reject(failed);
      resolve({ code: code ?? -1, stdout: Buffer.concat(out), stderr: Buffer.concat(err).toString('utf8') });
    });
    // A git that exits before reading all of its input closes the pipe: its exit code says why.
    child.stdin.on('error', () => undefined);
    child.stdin.end(call.input);
  });
}

/** `gitOk` without blocking the thread: a non-zero exit rejects with GitFailed. */
export async function gitOkAsync(
  place: GitPlace,
  args: readonly string[],
  call: GitCall = {},
): Promise<Buffer> {
  const r = await gitAsync(place, args, call);
  if (r.code !== 0) {
    const why = r.stderr.trim().split('\n')[0] || `exit ${r.code}`;
    throw new GitFailed(`git ${args[0]}: ${why}`);
  }
  return r.stdout;
}
