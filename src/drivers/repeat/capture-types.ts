// A captured state: the serialised form the engine compares (equal text = equal state, per
// recipe) plus what the change metric needs (per-path content hashes, prose word counts).

export interface Capture {
  recipe: 'git' | 'fs';
  /** The serialised state: git `HEAD/STATUS/DIFF/UNTRACKED` hashes, or the filesystem digest. */
  key: string;
  /** fs: every in-scope file; git: the dirty and untracked paths only. Path → content hash. */
  files: Map<string, string>;
  /** Word counts of prose files (fs recipe), for the word-count delta. */
  words: Map<string, number>;
  /** git: HEAD ('' before the first commit). */
  head?: string;
}

export interface CaptureOptions {
  root: string;
  scope: readonly string[];
  exclude: readonly string[];
}
