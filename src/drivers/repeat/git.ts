// Running git for a capture: no shell, its own options on every call (never the user's diff or
// colour config, no optional index lock so a capture does not itself change anything), bytes out.
import { spawn } from 'node:child_process';
import { createHash, type Hash } from 'node:crypto';

const GIT_CONFIG = [
  '-c',
  'core.quotepath=off',
  '-c',
  'color.ui=false',
  '-c',
  'core.fsmonitor=false',
  '-c',
  'diff.external=',
];
const GIT_TIMEOUT_MS = 60_000;

export class GitError extends Error {}

function gitEnv(): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    GIT_OPTIONAL_LOCKS: '0',
    LC_ALL: 'C',
    GIT_TERMINAL_PROMPT: '0',
  };
  delete env.GIT_DIR;
  delete env.GIT_WORK_TREE;
  delete env.GIT_INDEX_FILE;
  return env;
}

/** Runs git in `cwd`; feeds stdout to `sink`; resolves with the exit code (stderr kept for errors). */
function run(
  cwd: string,
  args: string[],
  sink: (chunk: Buffer) => void,
): Promise<{ code: number; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn('git', [...GIT_CONFIG, ...args], {
      cwd,
      env: gitEnv(),
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stderr = '';
    const timer = setTimeout(() => child.kill('SIGKILL'), GIT_TIMEOUT_MS);
    child.stdout.on('data', sink);
    child.stderr.on('data', (d: Buffer) => {
      if (stderr.length < 4096) stderr += d.toString('utf8');
    });
    child.on('error', (error) => {
      clearTimeout(timer);
      reject(new GitError(`git could not be run: ${error.message}`));
    });
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      resolve({ code: code ?? (signal ? 128 : 1), stderr: stderr.trim() });
    });
  });
}

/** git's stdout as bytes; a non-zero exit is a GitError naming the command. */
export async function gitBytes(cwd: string, args: string[], allowFail = false): Promise<Buffer | null> {
  const chunks: Buffer[] = [];
  const { code, stderr } = await run(cwd, args, (c) => chunks.push(c));
  if (code !== 0) {
    if (allowFail) return null;
    throw new GitError(`git ${args[0]} failed in ${cwd}: ${stderr.split('\n')[0] ?? `exit ${code}`}`);
  }
  return Buffer.concat(chunks);
}

export async function gitText(cwd: string, args: string[], allowFail = false): Promise<string | null> {
  const bytes = await gitBytes(cwd, args, allowFail);
  return bytes === null ? null : bytes.toString('utf8');
}

/** sha256 of git's stdout, streamed (a large diff is never held in memory). */
export async function gitHash(cwd: string, args: string[]): Promise<string> {
  const hash: Hash = createHash('sha256');
  const { code, stderr } = await run(cwd, args, (c) => hash.update(c));
  if (code !== 0)
    throw new GitError(`git ${args[0]} failed in ${cwd}: ${stderr.split('\n')[0] ?? `exit ${code}`}`);
  return hash.digest('hex');
}

/** True when `cwd` is inside a git work tree (false when git is missing too). */
export async function insideWorkTree(cwd: string): Promise<boolean> {
  try {
    return (await gitText(cwd, ['rev-parse', '--is-inside-work-tree'], true))?.trim() === 'true';
  } catch {
    return false;
  }
}
