// A ledger file as the original engine writes one: Python's `json.dumps(value, indent=2,
// sort_keys=True)` with ensure_ascii on (every character outside printable ASCII escaped, keys
// included; with an indent the separators are ',' and ': '). The tests build another writer's
// files with it; bench/fixtures.mjs keeps the benchmark's own copy (plain .mjs, outside the
// bundled tests). Numbers are written as JSON.stringify writes them, which is what Python writes
// for the integers and short decimals the tests hold.

export interface DumpsOptions {
  /** false: each object's keys in their own order (sort_keys=False). Default true. */
  sort?: boolean;
  /**
   * true: keys written as JSON.stringify writes them, characters outside ASCII as their UTF-8
   * bytes (unlike Python): a file whose keys hold raw UTF-8. Default false.
   */
  rawKeys?: boolean;
}

export function pythonDumps(value: unknown, options: DumpsOptions = {}, indent = ''): string {
  if (value === null || typeof value !== 'object') return scalar(value);
  const inner = `${indent}  `;
  if (Array.isArray(value)) {
    if (value.length === 0) return '[]';
    return `[\n${value.map((item) => inner + pythonDumps(item, options, inner)).join(',\n')}\n${indent}]`;
  }
  const keys = Object.keys(value);
  if (options.sort !== false) keys.sort();
  if (keys.length === 0) return '{}';
  const members = keys.map((key) => {
    const name = options.rawKeys === true ? JSON.stringify(key) : scalar(key);
    return `${inner}${name}: ${pythonDumps((value as Record<string, unknown>)[key], options, inner)}`;
  });
  return `{\n${members.join(',\n')}\n${indent}}`;
}

function scalar(value: unknown): string {
  const text = JSON.stringify(value);
  return typeof value === 'string'
    ? text.replace(/[^\x20-\x7e]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`)
    : text;
}
