// A pattern built on first use. V8 parses a pattern when the RegExp is created, and a Unicode
// property class (`\p{L}`, `\p{Nd}`) costs up to a millisecond to expand: built at module load,
// such patterns tax every CLI command that merely imports the module (`iterate` pays for the
// error-signature patterns even when no `--error` is given). Built on first use, only the
// commands that match text pay.

/** Returns a function giving one shared RegExp, created the first time it is called. */
export function lazyRegExp(source: string | (() => string), flags: string): () => RegExp {
  let pattern: RegExp | undefined;
  return () => (pattern ??= new RegExp(typeof source === 'string' ? source : source(), flags));
}
