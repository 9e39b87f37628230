// Error signatures and state hashes: the normalised fingerprints the stall predicates compare.
// Normalisation follows the original engine (Python, Unicode-aware \w \d \s) so the same error
// text yields the same signature in both engines.
import { lazyRegExp } from './lazy-regexp';
import { PY_WHITESPACE as WS } from './python-text';
import { sha256Hex16 as sha16 } from './sha';

const QUOTED = /"[^"]*"|'[^']*'/g;
const HEX = /0x[0-9a-f]+/g;
// Built on first use (lazy-regexp.ts): most `iterate` calls record no error text.
const PATHS = lazyRegExp(String.raw`(?:/[\p{L}\p{N}_.@+-]+)+`, 'gu');
const TIMESTAMP = lazyRegExp(
  `\\p{Nd}{4}-\\p{Nd}{2}-\\p{Nd}{2}[t ]\\p{Nd}{2}:\\p{Nd}{2}:\\p{Nd}{2}[^${WS}]*`,
  'gu',
);
const NUMBERS = lazyRegExp(String.raw`\p{Nd}+`, 'gu');
const SPACES = lazyRegExp(`[${WS}]+`, 'gu');
const EDGES = lazyRegExp(`^[${WS}]+|[${WS}]+$`, 'gu');

/** The normalised form of an error text (exported for tests and tooltips). */
export function normaliseError(text: string): string {
  return text
    .toLowerCase()
    .replace(QUOTED, ' <q> ')
    .replace(HEX, ' <hex> ')
    .replace(PATHS(), ' <path> ')
    .replace(TIMESTAMP(), ' <ts> ')
    .replace(NUMBERS(), ' <n> ')
    .replace(SPACES(), ' ')
    .replace(EDGES(), '');
}

export function errorSignature(text: string | null | undefined): string | null {
  if (!text) return null;
  const normal = normaliseError(text);
  return normal === '' ? null : sha16(normal);
}

export function stateHash(text: string | null | undefined): string | null {
  if (!text) return null;
  const words = text
    .toLowerCase()
    .split(SPACES())
    .filter((w) => w !== '');
  return sha16(words.join(' '));
}
