// `compile lockfile-sha`: pins a work order's references by SHA. A reference's body SHA is READ
// from the navigator cache (structured `.recipes[<name>].sha`, else the index line
// `- <name> [<capability>] (sha:<sha>): …` of `.index.content` or, in the shared store's shape,
// of the top-level `.content`), never re-fetched; `excerpt_sha` is SHA-256 of the
// inlined excerpt; `compiled_from` pins each design artifact by the SHA-256 of its bytes.
// Missing pieces become null plus a warning; the kernel always exits 0.
import { pySplitLines } from '../python-text';
import { sha256 } from '../sha';
import { isObject } from './jq';

export interface LockfileIo {
  /** The cache file's text, or undefined when it cannot be read. */
  readText(path: string): string | undefined;
  /** SHA-256 (hex) of a file's bytes, or undefined when it cannot be read. */
  fileSha(path: string): string | undefined;
}

export interface LockfileEntry {
  ref: unknown;
  sha: unknown;
  excerpt_sha: string | null;
  kind: unknown;
}

export interface LockfileResult {
  ok: boolean;
  lockfile: LockfileEntry[];
  compiled_from: Record<string, { file: string | null; sha: string | null }>;
  warnings: string[];
}

const ARTIFACTS = ['architecture', 'alignment', 'research'] as const;
const INDEX_LINE = /^-\s+(\S+)\s+\[[^\]]*\]\s+\(sha:([^)]+)\)/;

/** Python's truthiness for JSON values (the original tests `if value:`). */
function truthy(value: unknown): boolean {
  if (value === undefined || value === null || value === false || value === 0 || value === '') return false;
  if (Array.isArray(value)) return value.length > 0;
  if (isObject(value)) return Object.keys(value).length > 0;
  return true;
}

/** Python's `str(value)` for the JSON values a warning can carry. */
function pyStr(value: unknown): string {
  if (value === undefined || value === null) return 'None';
  if (value === true) return 'True';
  if (value === false) return 'False';
  if (typeof value === 'string') return value;
  return JSON.stringify(value);
}

/** Python's `os.path.basename`: the text after the last slash ('' for a trailing slash). */
const pyBasename = (path: string): string => path.slice(path.lastIndexOf('/') + 1);

function failure(warning: string): LockfileResult {
  return { ok: false, lockfile: [], compiled_from: {}, warnings: [warning] };
}

function lookupSha(cache: Record<string, unknown>, name: unknown): unknown {
  if (typeof name !== 'string' || name === '') return null;
  const recipes = cache.recipes;
  if (isObject(recipes) && Object.prototype.hasOwnProperty.call(recipes, name)) {
    const recipe = recipes[name];
    if (isObject(recipe) && truthy(recipe.sha)) return recipe.sha;
  }
  const index = cache.index;
  let content = isObject(index) ? index.content : undefined;
  // The shared store keeps the index file itself, `{hash, fetched_at, content}`, with no
  // `index` wrapper: its `content` lines carry the same authoritative `(sha:…)`.
  if (typeof content !== 'string') content = cache.content;
  if (typeof content === 'string') {
    for (const line of pySplitLines(content)) {
      const match = INDEX_LINE.exec(line);
      if (match && match[1] === name) return match[2];
    }
  }
  return null;
}

/** `input` is the parsed stdin ({} for an empty one; undefined when it was not JSON). */
export function lockfileSha(input: unknown, io: LockfileIo): LockfileResult {
  if (input === undefined) return failure('internal_error:input_not_json');
  if (!isObject(input)) return failure('internal_error:input_not_an_object');
  const warnings: string[] = [];
  let cache: Record<string, unknown> = {};
  const cacheFile = input.cache_file;
  if (truthy(cacheFile)) {
    const text = typeof cacheFile === 'string' ? io.readText(cacheFile) : undefined;
    let parsed: unknown;
    try {
      parsed = text === undefined ? undefined : JSON.parse(text);
    } catch {
      parsed = undefined;
    }
    if (parsed === undefined) warnings.push(`cache_unreadable:${pyStr(cacheFile)}`);
    else if (isObject(parsed)) cache = parsed;
  } else warnings.push('no_cache_file');

  const refs = input.refs ?? [];
  if (!Array.isArray(refs)) return failure('refs_not_array');
  const lockfile: LockfileEntry[] = [];
  for (const ref of refs) {
    if (!isObject(ref)) {
      warnings.push('non_object_ref_skipped');
      continue;
    }
    const refText = ref.ref ?? null;
    let name = ref.name;
    if (!truthy(name) && typeof refText === 'string') name = refText.split('@')[0];
    let excerptSha: string | null = null;
    if (typeof ref.excerpt === 'string') excerptSha = sha256().update(ref.excerpt, 'utf8').digest('hex');
    else warnings.push(`ref_no_excerpt:${pyStr(refText)}`);
    const sha = lookupSha(cache, name);
    if (sha === null) warnings.push(`sha_not_in_cache:${pyStr(name)}`);
    lockfile.push({ ref: refText, sha, excerpt_sha: excerptSha, kind: ref.kind ?? null });
  }

  const from = truthy(input.compiled_from) ? input.compiled_from : {};
  if (!isObject(from)) return failure('internal_error:compiled_from_not_an_object');
  const compiledFrom: LockfileResult['compiled_from'] = {};
  for (const key of ARTIFACTS) {
    const path = from[key];
    const entry: { file: string | null; sha: string | null } = {
      file: typeof path === 'string' ? pyBasename(path) : null,
      sha: null,
    };
    if (typeof path === 'string') {
      entry.sha = io.fileSha(path) ?? null;
      if (entry.sha === null) warnings.push(`compiled_from_unreadable:${key}`);
    } else warnings.push(`compiled_from_missing:${key}`);
    compiledFrom[key] = entry;
  }
  return { ok: true, lockfile, compiled_from: compiledFrom, warnings };
}
