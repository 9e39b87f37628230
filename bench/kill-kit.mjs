// What the kill campaigns (bench/kill-run.mjs, bench/kill-repeat.mjs, scripts/kill-campaign-wo.mjs)
// share: their command line (--cli and --seed beside each campaign's own counts), the seeded
// random their kill moments come from, the environment of the CLI they start, a CLI child that
// is SIGKILLed after a delay, and a read of a JSON file that may be missing or half-written.
import { spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';

const BUILT_CLI = fileURLToPath(new URL('../dist/cli.js', import.meta.url));

/**
 * The campaign's flags: `--cli` (the built CLI by default) and `--seed` (1), plus `options`, the
 * campaign's own string flags with their defaults. Unknown flags are refused. Returns the flag
 * values, the resolved CLI path and the seeded random.
 */
export function campaignArgs(options) {
  const { values } = parseArgs({
    options: {
      cli: { type: 'string', default: BUILT_CLI },
      seed: { type: 'string', default: '1' },
      ...options,
    },
  });
  const cli = resolve(values.cli);
  if (!existsSync(cli)) throw new Error(`--cli ${cli}: no such file (run node scripts/build.mjs)`);
  return { values, cli, random: seededRandom(wholeNumber(values.seed, '--seed')) };
}

/** `text` as a whole number of at least `min`, or an error naming `flag`. */
export function wholeNumber(text, flag, min = 0) {
  const n = Number(text);
  if (!Number.isInteger(n) || n < min) throw new Error(`${flag} must be a whole number of at least ${min}`);
  return n;
}

/** Deterministic [0, 1) from `seed` (mulberry32): the same seed gives the same kill moments. */
export function seededRandom(seed) {
  let state = seed | 0;
  return () => {
    state = (state + 0x6d2b79f5) | 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** This process's environment for the CLI child, less what would change how node starts. */
export function campaignEnv(extra = {}) {
  const env = { ...process.env, ...extra };
  delete env.NODE_OPTIONS;
  delete env.NODE_EXTRA_CA_CERTS;
  return env;
}

/**
 * Starts `node cli ...args`; `done` settles when it exits, with its code, signal and output.
 * The caller may SIGKILL `child` meanwhile.
 */
export function startCli(cli, args, { cwd, env }) {
  const child = spawn(process.execPath, [cli, ...args], { cwd, env, stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (d) => (stdout += d));
  child.stderr.on('data', (d) => (stderr += d));
  const done = new Promise((settle) =>
    child.on('close', (code, signal) => settle({ code, signal, stdout, stderr })),
  );
  return { child, done };
}

/** startCli to its end, SIGKILLed after `killAfterMs` unless that is null or it ended first. */
export async function runCli(cli, args, options, killAfterMs) {
  const { child, done } = startCli(cli, args, options);
  const timer = killAfterMs === null ? null : setTimeout(() => child.kill('SIGKILL'), killAfterMs);
  const result = await done;
  if (timer) clearTimeout(timer);
  return result;
}

export const sleep = (ms) => new Promise((wake) => setTimeout(wake, ms));

/** The parsed JSON at `path`, or undefined when it is missing or not JSON (a kill can leave either). */
export function readJson(path) {
  try {
    return JSON.parse(readFileSync(path, 'utf8'));
  } catch {
    return undefined;
  }
}
