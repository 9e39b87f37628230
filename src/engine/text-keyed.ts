// Maps keyed by text a user wrote (dimension names, contract keys). On a plain `{}` the name
// `__proto__` is the prototype, not a key: assigning to it is silently dropped (or swaps the
// prototype), and reading `toString` or `constructor` finds a function that was never there.
// A dimension called `__proto__` then vanishes from a score and a breached hard gate passes.
// These helpers make every such name an ordinary key.

/** A map with no prototype: every name, `__proto__` included, is its own plain key. */
export function textKeyed<T>(): Record<string, T> {
  return Object.create(null) as Record<string, T>;
}

/** The value stored under `key` itself; never one inherited from Object.prototype. */
export function ownValue<T>(map: Readonly<Record<string, T>> | null | undefined, key: string): T | undefined {
  return map !== null && map !== undefined && Object.hasOwn(map, key) ? map[key] : undefined;
}

/** Sets `key` on `target` as an own data property, even when `key` is `__proto__`. */
export function setOwn(target: Record<string, unknown>, key: string, value: unknown): void {
  if (key === '__proto__')
    Object.defineProperty(target, key, { value, writable: true, enumerable: true, configurable: true });
  else target[key] = value;
}

/** A prototype-free copy of `map` holding its own keys only. */
export function copyTextKeyed<T>(map: Readonly<Record<string, T>>): Record<string, T> {
  const copy = textKeyed<T>();
  for (const key of Object.keys(map)) copy[key] = map[key] as T;
  return copy;
}
