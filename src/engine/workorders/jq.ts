// The originals compute their JSON with jq, whose `a // b` falls back to `b` when `a` is null,
// absent OR false. Reproducing that exactly matters for drop-in output (e.g. a sidecar holding
// `halted: false` and one without the key read the same), so the rule lives here once.
import { isObject } from '../json-object';

export { isObject };

/** jq's alternative operator: `value // fallback`. */
export function alt<T>(value: unknown, fallback: T): unknown {
  return value === undefined || value === null || value === false ? fallback : value;
}

/** `.a.b.c` on possibly non-object values, like jq's path access (null when absent). */
export function path(value: unknown, ...keys: string[]): unknown {
  let current: unknown = value;
  for (const key of keys) {
    if (!isObject(current)) return null;
    current = Object.prototype.hasOwnProperty.call(current, key) ? current[key] : null;
  }
  return current;
}

/** Parses JSON text into an object, or `{}` when it is absent, malformed or not an object. */
export function objectOrEmpty(text: string | undefined): Record<string, unknown> {
  if (text === undefined) return {};
  try {
    const parsed: unknown = JSON.parse(text);
    return isObject(parsed) ? parsed : {};
  } catch {
    return {};
  }
}

/** `jq -r` rendering of a scalar: strings bare, everything else as JSON. */
export function raw(value: unknown): string {
  if (typeof value === 'string') return value;
  if (value === undefined) return 'null';
  return JSON.stringify(value);
}
