// What a capture never sees (the original's list, plus our own writes): without these a
// workspace never settles, because the capture would see the ledger being written.
import { OWN_FOLDER } from '../../engine/own-writes';

/** Always excluded, by every recipe: our ledger and sidecars, the original's cache, IDE/OS state. */
export const ALWAYS_EXCLUDED = [OWN_FOLDER, '.ai-cache', '.vscode', '.idea', '.DS_Store', 'Thumbs.db'];

/** The filesystem recipe's default scope also drops build output and dependency folders. */
export const FS_DEFAULT_EXCLUDED = [
  'node_modules',
  'target',
  'build',
  'dist',
  '.cache',
  '__pycache__',
  '.next',
  '.venv',
];

/** The filesystem recipe never reads a repository's own metadata (when forced onto a git root). */
export const FS_ALWAYS_EXCLUDED = ['.git'];

/** Prose files whose word count the filesystem metric reports. */
export const PROSE_EXTENSIONS = ['.md', '.markdown', '.txt', '.rst', '.adoc', '.tex'];
