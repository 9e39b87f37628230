// A brief's identity is derived from exactly what the critic is shown, so a verdict that
// names the id is a verdict about this diff, this verification output, this rubric and this
// declared scope. The bytes hashed are Python's, so ids agree with the original engine's.
import type { ChunkedText } from '../chunked-text';
import { sha256 } from '../sha';
import { writePythonJson } from './python-json';

export interface BriefIdParts {
  /** The diff's text; a ChunkedText (a diff kept as bytes) hashes exactly as its string would. */
  diff: string | ChunkedText;
  verification: string;
  rubric: unknown;
  /** The declared paths, or null when no change scope was given. */
  scope: string[] | null;
}

/** The first 16 hex digits of SHA-256 over the sorted-key Python JSON of the four parts. */
export function briefId(parts: BriefIdParts): string {
  const { diff, verification, rubric, scope } = parts;
  const hash = sha256();
  // The serialisation is pure ASCII, so latin1 gives the same bytes as UTF-8, faster; pieces
  // already in bytes (a diff kept as bytes) are hashed as they are.
  writePythonJson({ diff, verification, rubric, scope }, (piece) =>
    typeof piece === 'string' ? hash.update(piece, 'latin1') : hash.updateBytes(piece),
  );
  return hash.digest('hex').slice(0, 16);
}
